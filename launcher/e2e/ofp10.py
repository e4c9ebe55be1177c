"""Just enough OpenFlow 1.0 to script a conversation with Open vSwitch (capture_ovs.py, fake_beacon.py)."""

import struct

VERSION = 0x01
HEADER = struct.Struct("!BBHI")

# Message types.
HELLO, ERROR, ECHO_REQUEST, ECHO_REPLY, VENDOR = 0, 1, 2, 3, 4
FEATURES_REQUEST, FEATURES_REPLY, GET_CONFIG_REQUEST, GET_CONFIG_REPLY, SET_CONFIG = 5, 6, 7, 8, 9
PACKET_IN, FLOW_REMOVED, PORT_STATUS, PACKET_OUT, FLOW_MOD, PORT_MOD = 10, 11, 12, 13, 14, 15
STATS_REQUEST, STATS_REPLY, BARRIER_REQUEST, BARRIER_REPLY = 16, 17, 18, 19
QUEUE_GET_CONFIG_REQUEST, QUEUE_GET_CONFIG_REPLY = 20, 21

# Stats types.
STATS_DESC, STATS_FLOW, STATS_AGGREGATE, STATS_TABLE, STATS_PORT, STATS_QUEUE = 0, 1, 2, 3, 4, 5
STATS_REPLY_MORE = 0x0001

# Ports, buffers, flow_mod commands and flags.
OFPP_FLOOD, OFPP_ALL, OFPP_CONTROLLER, OFPP_NONE = 0xfffb, 0xfffc, 0xfffd, 0xffff
NO_BUFFER = 0xffffffff
FLOW_ADD, FLOW_DELETE = 0, 3
FLAG_SEND_FLOW_REM = 0x0001

# Match wildcards.
FW_IN_PORT, FW_DL_SRC, FW_DL_DST, FW_DL_TYPE = 1, 4, 8, 16
FW_NW_DST_MASK = 0x3f << 14  # a 6-bit count of wildcarded low address bits; 0 = exact match
FW_ALL = (1 << 22) - 1

MATCH = struct.Struct("!IH6s6sHBxHBBxxIIHH")

# Nicira extension on OpenFlow 1.0.
NX_VENDOR_ID = 0x00002320
NXT_ROLE_REQUEST, NXT_ROLE_REPLY = 10, 11
NX_ROLE_MASTER = 1


def header(msg_type, length, xid):
    return HEADER.pack(VERSION, msg_type, length, xid)


def message(msg_type, xid, body=b""):
    return header(msg_type, HEADER.size + len(body), xid) + body


def match(wildcards=FW_ALL, in_port=0, dl_src=b"\0" * 6, dl_dst=b"\0" * 6, dl_vlan=0, dl_vlan_pcp=0, dl_type=0,
          nw_tos=0, nw_proto=0, nw_src=0, nw_dst=0, tp_src=0, tp_dst=0):
    return MATCH.pack(wildcards, in_port, dl_src, dl_dst, dl_vlan, dl_vlan_pcp, dl_type, nw_tos, nw_proto,
                      nw_src, nw_dst, tp_src, tp_dst)


def action_output(port, max_len=0):
    return struct.pack("!HHHH", 0, 8, port, max_len)


def action_set_dl_dst(mac):
    return struct.pack("!HH6s6x", 5, 16, mac)


def action_set_vlan_vid(vid):
    return struct.pack("!HHH2x", 1, 8, vid)


def flow_mod(xid, match_bytes, actions=b"", command=FLOW_ADD, idle=0, hard=0, priority=0x8000,
             buffer_id=NO_BUFFER, out_port=OFPP_NONE, flags=0, cookie=0):
    body = match_bytes + struct.pack("!QHHHHIHH", cookie, command, idle, hard, priority, buffer_id, out_port,
                                     flags) + actions
    return message(FLOW_MOD, xid, body)


def packet_out(xid, in_port, actions, data, buffer_id=NO_BUFFER):
    return message(PACKET_OUT, xid, struct.pack("!IHH", buffer_id, in_port, len(actions)) + actions + data)


def stats_request(xid, stats_type, body=b""):
    return message(STATS_REQUEST, xid, struct.pack("!HH", stats_type, 0) + body)


def parse_packet_in(body):
    """(buffer_id, total_len, in_port, reason, frame) of a PACKET_IN body (after the header)."""
    buffer_id, total_len, in_port, reason = struct.unpack_from("!IHHB", body)
    return buffer_id, total_len, in_port, reason, body[10:]


class Connection:
    """A blocking OpenFlow connection that reads whole messages."""

    def __init__(self, sock):
        self.sock = sock
        self._buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def recv(self):
        """The next whole message as (type, xid, raw bytes); None at EOF."""
        while True:
            if len(self._buf) >= HEADER.size:
                _, msg_type, length, xid = HEADER.unpack_from(self._buf)
                if length < HEADER.size:
                    raise ValueError(f"bad OpenFlow length {length}")
                if len(self._buf) >= length:
                    raw, self._buf = self._buf[:length], self._buf[length:]
                    return msg_type, xid, raw
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self._buf += chunk


# Switch side (one_response.py emulates switches): building what a switch sends, parsing what a controller sends.

PHY_PORT = struct.Struct("!H6s16sIIIIII")
FLOW_MOD_TAIL = struct.Struct("!QHHHHIHH")  # after the match: cookie .. flags
ETH_TYPE_LLDP = 0x88cc


def packet_in(xid, buffer_id, in_port, frame, reason=0, total_len=None):
    return message(PACKET_IN, xid, struct.pack("!IHHBx", buffer_id, len(frame) if total_len is None else total_len,
                                               in_port, reason) + frame)


def phy_port(port_no, hw_addr, name, config=0, state=0, curr=0, advertised=0, supported=0, peer=0):
    return PHY_PORT.pack(port_no, hw_addr, name.encode(), config, state, curr, advertised, supported, peer)


def features_reply(xid, dpid, ports, n_buffers=256, n_tables=1, capabilities=0, actions=0xfff):
    """FEATURES_REPLY; `ports` are phy_port() bytes."""
    return message(FEATURES_REPLY, xid, struct.pack("!QIB3xII", dpid, n_buffers, n_tables, capabilities, actions)
                   + b"".join(ports))


def desc_stats_reply(xid, mfr="", hw="", sw="", serial="", dp=""):
    """The description STATS_REPLY (a 1056-byte body of NUL-padded strings)."""
    body = struct.pack("!256s256s256s32s256s", mfr.encode(), hw.encode(), sw.encode(), serial.encode(), dp.encode())
    return message(STATS_REPLY, xid, struct.pack("!HH", STATS_DESC, 0) + body)


def parse_actions(data):
    """[(type, action bytes)] of an action list; ValueError when an action's length is impossible."""
    actions, at = [], 0
    while at < len(data):
        if len(data) - at < 4:
            raise ValueError(f"{len(data) - at} trailing bytes in an action list")
        action_type, length = struct.unpack_from("!HH", data, at)
        if length < 8 or length % 8 or at + length > len(data):
            raise ValueError(f"action of type {action_type} with length {length}")
        actions.append((action_type, bytes(data[at:at + length])))
        at += length
    return actions


def output_port(action):
    """The port of an OUTPUT action from parse_actions(), None for any other action."""
    action_type, raw = action
    return struct.unpack_from("!H", raw, 4)[0] if action_type == 0 else None


def parse_flow_mod(body):
    """(match tuple as MATCH unpacks it, command, idle, hard, priority, buffer_id, out_port, flags, actions) of a
    FLOW_MOD body (after the header)."""
    m = MATCH.unpack_from(body)
    cookie, command, idle, hard, priority, buffer_id, out_port, flags = FLOW_MOD_TAIL.unpack_from(body, MATCH.size)
    actions = parse_actions(body[MATCH.size + FLOW_MOD_TAIL.size:])
    return m, command, idle, hard, priority, buffer_id, out_port, flags, actions


def parse_packet_out(body):
    """(buffer_id, in_port, actions, data) of a PACKET_OUT body (after the header)."""
    buffer_id, in_port, actions_len = struct.unpack_from("!IHH", body)
    return buffer_id, in_port, parse_actions(body[8:8 + actions_len]), bytes(body[8 + actions_len:])
