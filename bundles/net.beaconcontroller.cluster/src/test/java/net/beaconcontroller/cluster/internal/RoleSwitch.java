package net.beaconcontroller.cluster.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import net.beaconcontroller.core.test.FakeSwitch;
import net.beaconcontroller.openflow.NiciraRoleReply;
import net.beaconcontroller.openflow.NiciraRoleRequest;
import net.beaconcontroller.openflow.OFBarrierReply;
import net.beaconcontroller.openflow.OFData;
import net.beaconcontroller.openflow.OFError;
import net.beaconcontroller.openflow.OFErrorCode;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFFlowRemoved;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * One emulated switch connected to several controllers, following Open vSwitch's rules for the Nicira role extension
 * on OpenFlow 1.0: PACKET_IN and FLOW_REMOVED go to every MASTER and OTHER connection and to no SLAVE, in the same
 * order on each; a SLAVE's FLOW_MOD or PACKET_OUT is refused with an EPERM error; a MASTER request demotes the other
 * master to SLAVE. Its PACKET_INs are numbered and every PACKET_OUT answering one is counted, with the connection it
 * came on.
 */
final class RoleSwitch implements AutoCloseable {
    private final List<FakeSwitch> connections = new ArrayList<>();
    private final NiciraRole[] roles;
    /** Guards the roles and the order of asynchronous messages across connections. */
    private final Object lock = new Object();
    private final Map<Long, OFFlowMod> removable = new HashMap<>();
    /** PACKET_IN number: the connections whose PACKET_OUTs answered it. */
    final Map<Integer, List<Integer>> answers = new ConcurrentHashMap<>();
    /** FLOW_MODs and PACKET_OUTs refused because they came from a SLAVE: writes a controller lost. */
    final AtomicInteger refused = new AtomicInteger();
    /** Each BARRIER_REQUEST: the connection it came on and how many PACKET_INs were answered when it did. */
    final List<List<Integer>> barriers = new CopyOnWriteArrayList<>();

    /** Grants EQUAL without answering: a migration stays in its first phase (its target waits for the answer). */
    volatile boolean withholdEqual;
    /** Deletes flows but holds their FLOW_REMOVED back (a migration's marker on its way) until {@link #release}. */
    volatile boolean holdRemovals;
    private final List<OFFlowMod> held = new ArrayList<>();

    RoleSwitch(long dpid, int... controllerPorts) {
        roles = new NiciraRole[controllerPorts.length];
        for (int i = 0; i < controllerPorts.length; i++) {
            roles[i] = NiciraRole.OTHER;
            int index = i;
            var fs = FakeSwitch.connect(controllerPorts[i], dpid, List.of(FakeSwitch.port(1, "p1"), FakeSwitch.port(2, "p2")));
            fs.answer(OFType.VENDOR, m -> role(index, m));
            fs.answer(OFType.FLOW_MOD, m -> flowMod(index, (OFFlowMod) m));
            fs.answer(OFType.PACKET_OUT, m -> packetOut(index, (OFPacketOut) m));
            fs.answer(OFType.BARRIER_REQUEST, m -> {
                barriers.add(List.of(index, answers.size()));
                return new OFBarrierReply(m.xid()).toByteArray();
            });
            connections.add(fs);
        }
        connections.forEach(FakeSwitch::hello);
    }

    /** A frame carrying number {@code n} where {@link #answers} reads it from a PACKET_OUT. */
    static byte[] numbered(int n) {
        var frame = FakeSwitch.frame(64, n);
        ByteBuffer.wrap(frame).putInt(14, n);
        return frame;
    }

    NiciraRole[] roles() {
        synchronized (lock) {
            return roles.clone();
        }
    }

    /** Sends PACKET_IN number {@code n} to every connection that is not SLAVE. */
    void packetIn(int n) {
        var frame = numbered(n);
        synchronized (lock) {
            for (int i = 0; i < connections.size(); i++) {
                if (roles[i] != NiciraRole.SLAVE) {
                    var fs = connections.get(i);
                    fs.send(fs.packetIn(1, frame));
                }
            }
        }
    }

    private byte[] role(int i, OFMessage m) {
        if (!(m instanceof NiciraRoleRequest request)) {
            return null;
        }
        synchronized (lock) {
            if (request.role() == NiciraRole.MASTER) {
                for (int j = 0; j < roles.length; j++) {
                    if (roles[j] == NiciraRole.MASTER) {
                        roles[j] = NiciraRole.SLAVE;
                    }
                }
            }
            roles[i] = request.role();
        }
        if (request.role() == NiciraRole.OTHER && withholdEqual) {
            return null;
        }
        return new NiciraRoleReply(request.xid(), request.role()).toByteArray();
    }

    private byte[] flowMod(int i, OFFlowMod fm) {
        synchronized (lock) {
            if (roles[i] == NiciraRole.SLAVE) {
                return refuse(fm);
            }
            if (fm.command() == OFFlowMod.Command.ADD && (fm.flags() & OFFlowMod.FLAG_SEND_FLOW_REM) != 0) {
                removable.put(fm.cookie(), fm);
            } else if (fm.command() == OFFlowMod.Command.DELETE_STRICT) {
                var gone = removable.remove(fm.cookie());
                if (gone != null && holdRemovals) {
                    held.add(gone);
                } else if (gone != null) {
                    removed(gone);
                }
            }
        }
        return null;
    }

    /** Sends the FLOW_REMOVEDs held back, and holds no more. */
    void release() {
        synchronized (lock) {
            holdRemovals = false;
            held.forEach(this::removed);
            held.clear();
        }
    }

    private void removed(OFFlowMod gone) {
        for (int j = 0; j < connections.size(); j++) {
            if (roles[j] != NiciraRole.SLAVE) {
                connections.get(j).send(new OFFlowRemoved(0, gone.match(), gone.cookie(), gone.priority(),
                        OFFlowRemoved.Reason.DELETE, 0, 0, 0, 0, 0));
            }
        }
    }

    private byte[] packetOut(int i, OFPacketOut po) {
        synchronized (lock) {
            if (roles[i] == NiciraRole.SLAVE) {
                return refuse(po);
            }
        }
        var data = po.data();
        answers.computeIfAbsent(data.getInt(data.position() + 14), k -> new CopyOnWriteArrayList<>()).add(i);
        return null;
    }

    private byte[] refuse(OFMessage m) {
        refused.incrementAndGet();
        var bytes = m.toByteArray();
        // As Open vSwitch does: the error carries the first 64 bytes of the refused message.
        return new OFError(m.xid(), OFErrorCode.BadRequest.EPERM, OFData.of(Arrays.copyOf(bytes, Math.min(64, bytes.length))))
                .toByteArray();
    }

    @Override
    public void close() {
        connections.forEach(FakeSwitch::close);
    }
}
