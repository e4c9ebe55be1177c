package net.beaconcontroller.cbench;

import static net.beaconcontroller.cbench.Openflowj.OF10;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRoleReply;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/** Two scripted controllers share one {@link SharedSwitch}: Open vSwitch's role rules, as the cluster needs them. */
@Timeout(30)
class SharedSwitchTest {
    private final List<ServerSocket> servers = new ArrayList<>();
    private final List<Peer> controllers = new ArrayList<>();
    private final List<SharedSwitch.RoleEvent> events = new CopyOnWriteArrayList<>();
    private SharedSwitch sw;

    @BeforeEach
    void connect() throws IOException {
        var addresses = new ArrayList<InetSocketAddress>();
        for (int i = 0; i < 2; i++) {
            var s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            servers.add(s);
            addresses.add(new InetSocketAddress("127.0.0.1", s.getLocalPort()));
        }
        sw = new SharedSwitch(7, addresses, events::add);
        sw.start();
        for (var s : servers) {
            var peer = new Peer(s.accept());
            assertEquals(OpenFlow10.HELLO, peer.read()[1]);
            controllers.add(peer);
        }
    }

    @AfterEach
    void close() throws IOException {
        sw.close();
        for (var s : servers) {
            s.close();
        }
    }

    @Test
    void packetInsGoToMasterAndEqualOnlyAndSlavesCannotWrite() throws Exception {
        var a = controllers.get(0);
        var b = controllers.get(1);
        assertEquals(OFNiciraControllerRole.ROLE_MASTER, role(a, OFNiciraControllerRole.ROLE_MASTER));
        assertEquals(OFNiciraControllerRole.ROLE_SLAVE, role(b, OFNiciraControllerRole.ROLE_SLAVE));
        assertEquals(0, sw.master(true));

        sw.sendPacketIn();
        var first = assertInstanceOf(OFPacketIn.class, Openflowj.parse(a.read()));
        assertEquals(OFBufferId.of(1), first.getBufferId(), "the number is the buffer_id");

        b.send(Openflowj.bytes(OF10.buildPacketOut().setXid(9).setBufferId(OFBufferId.of(1))
                .setActions(List.of(OF10.actions().output(OFPort.FLOOD, 0))).build()));
        var refused = assertInstanceOf(OFBadRequestErrorMsg.class, Openflowj.parse(b.read()));
        assertEquals(OFBadRequestCode.EPERM, refused.getCode());
        assertEquals(9, refused.getXid());

        a.send(Openflowj.bytes(OF10.buildFlowAdd().setBufferId(OFBufferId.of(1)).build()));
        a.barrier();
        assertEquals(1L, sw.<Long>withLog(l -> l.count(1)), "answered once, by the master");
        assertEquals(1L, sw.refused());

        // b becomes EQUAL: both get the next PACKET_IN, and the marker's FLOW_REMOVED after it on both streams.
        assertEquals(OFNiciraControllerRole.ROLE_OTHER, role(b, OFNiciraControllerRole.ROLE_OTHER));
        sw.sendPacketIn();
        a.send(Openflowj.bytes(OF10.buildFlowAdd().setXid(20).setCookie(U64.of(0xbeac0001L))
                .setFlags(java.util.Set.of(OFFlowModFlags.SEND_FLOW_REM)).build()));
        a.send(Openflowj.bytes(OF10.buildFlowDeleteStrict().setXid(21).setCookie(U64.of(0xbeac0001L)).build()));
        for (var peer : controllers) {
            assertEquals(OFBufferId.of(2), ((OFPacketIn) Openflowj.parse(peer.read())).getBufferId());
            var removed = assertInstanceOf(OFFlowRemoved.class, Openflowj.parse(peer.read()));
            assertEquals(U64.of(0xbeac0001L), removed.getCookie());
        }

        // b's MASTER request demotes a, which then gets no PACKET_IN.
        assertEquals(OFNiciraControllerRole.ROLE_MASTER, role(b, OFNiciraControllerRole.ROLE_MASTER));
        assertEquals(1, sw.master(true));
        sw.sendPacketIn();
        assertEquals(OFBufferId.of(3), ((OFPacketIn) Openflowj.parse(b.read())).getBufferId());
        a.barrier(); // nothing but the barrier's reply on a's stream
        assertEquals(List.of("0 MASTER", "1 SLAVE", "1 OTHER", "1 MASTER"),
                events.stream().map(e -> e.connection() + " " + e.role()).toList());
        assertEquals(1L, sw.<Long>withLog(l -> l.count(1)), "number 1 answered once");
        assertEquals(2L, sw.<Long>withLog(l -> l.count(0)), "numbers 2 and 3 not answered");
    }

    @Test
    void unknownVendorMessagesGetBadVendor() throws Exception {
        var a = controllers.get(0);
        byte[] vendor = {1, 4, 0, 16, 0, 0, 0, 5, 0, 0, 0x12, 0x34, 0, 0, 0, 0};
        a.send(vendor);
        var error = assertInstanceOf(OFBadRequestErrorMsg.class, Openflowj.parse(a.read()));
        assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, error.getCode());
        assertTrue(events.isEmpty());
    }

    private static OFNiciraControllerRole role(Peer c, OFNiciraControllerRole role) throws Exception {
        c.send(Openflowj.bytes(OF10.buildNiciraControllerRoleRequest().setXid(3).setRole(role).build()));
        OFMessage reply = Openflowj.parse(c.read());
        return assertInstanceOf(OFNiciraControllerRoleReply.class, reply).getRole();
    }

    /** A scripted controller's end of one connection. */
    private static final class Peer {
        private final Socket socket;
        private final DataInputStream in;

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new DataInputStream(socket.getInputStream());
        }

        void send(byte[] message) throws IOException {
            socket.getOutputStream().write(message);
        }

        byte[] read() throws IOException {
            byte[] header = new byte[8];
            in.readFully(header);
            int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
            byte[] message = java.util.Arrays.copyOf(header, length);
            in.readFully(message, 8, length - 8);
            return message;
        }

        /** Sends a barrier and asserts its reply is the next message: everything before it was handled. */
        void barrier() throws IOException {
            send(OpenFlow10.headerOnly(OpenFlow10.BARRIER_REQUEST, 77));
            assertEquals(OpenFlow10.BARRIER_REPLY, read()[1]);
        }
    }
}
