package net.beaconcontroller.learningswitch.internal;

import java.nio.ByteBuffer;
import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFPacketIn;
import net.beaconcontroller.openflow.OFPacketOut;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.OFPortStatus;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.util.CoarseClock;
import net.beaconcontroller.util.MacAddress;
import net.beaconcontroller.util.MacTable;

/**
 * Layer-2 learning switch: learns which port each source MAC is behind, installs an exact-match flow towards a known
 * destination and floods to an unknown one.
 *
 * <p>The MAC table of a switch lives in the switch's thread-confined local state: only that switch's I/O thread
 * touches it, so it needs no locks.
 */
@Component(immediate = true)
public final class LearningSwitch implements IOFMessageListener {
    /** Listener name, as used in {@code controller.callbackOrdering}. */
    public static final String NAME = "switch";
    private static final List<OFAction> FLOOD = List.of(new OFActionOutput(OFPort.FLOOD, 0));
    private static final List<OFAction> DROP = List.of();

    /** Key of this app's table in each switch's local state; one per instance so an updated bundle starts afresh. */
    private final Object tableKey = new Object();
    private final IBeaconProvider beacon;
    private final int idleTimeout;
    private final int hardTimeout;
    private final int tableSize;
    private final int macAge;

    @Activate
    public LearningSwitch(@Reference IBeaconProvider beacon) {
        this.beacon = beacon;
        var s = beacon.getSettings();
        idleTimeout = s.getInt("learningswitch.idleTimeout");
        hardTimeout = s.getInt("learningswitch.hardTimeout");
        tableSize = s.getInt("learningswitch.tableSize");
        macAge = s.getInt("learningswitch.macAge");
        beacon.addOFMessageListener(OFType.PACKET_IN, this);
        beacon.addOFMessageListener(OFType.PORT_STATUS, this);
    }

    @Deactivate
    void deactivate() {
        beacon.removeOFMessageListener(OFType.PACKET_IN, this);
        beacon.removeOFMessageListener(OFType.PORT_STATUS, this);
        for (var sw : beacon.getSwitches().values()) {
            sw.execute(() -> sw.getLocal().remove(tableKey));
        }
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg) {
        if (msg instanceof OFPacketIn pi) {
            packetIn(sw, pi);
        } else if (msg instanceof OFPortStatus ps
                && (ps.reason() == OFPortStatus.Reason.DELETE || ps.desc().isDown())) {
            var table = (MacTable) sw.getLocal().get(tableKey);
            if (table != null) {
                table.removeValue(ps.desc().portNo());
            }
        }
        return Command.CONTINUE;
    }

    private void packetIn(IOFSwitch sw, OFPacketIn pi) {
        ByteBuffer frame = pi.frame();
        if (frame.remaining() < 14) {
            return;
        }
        int at = frame.position();
        long dst = ((frame.getShort(at) & 0xffffL) << 32) | (frame.getInt(at + 2) & 0xffff_ffffL);
        long src = ((frame.getShort(at + 6) & 0xffffL) << 32) | (frame.getInt(at + 8) & 0xffff_ffffL);
        int inPort = pi.inPort();
        int now = CoarseClock.seconds();
        var table = table(sw);
        if (!MacAddress.isMulticast(src)) {
            table.put(src, inPort, now);
        }
        int outPort = MacAddress.isMulticast(dst) ? MacTable.ABSENT : table.get(dst, now);
        if (outPort == MacTable.ABSENT) {
            sw.write(OFPacketOut.of(pi, FLOOD));
            return;
        }
        // A frame for the port it came from goes nowhere: the flow drops such frames at the switch from now on.
        List<OFAction> actions = outPort == inPort ? DROP : List.of(new OFActionOutput(outPort, 0));
        sw.write(OFFlowMod.builder()
                .match(OFMatch.fromPacket(frame, inPort))
                .idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout)
                .bufferId(pi.bufferId())
                .actions(actions)
                .build());
        if (!pi.isBuffered() && outPort != inPort) {
            sw.write(OFPacketOut.unbuffered(0, inPort, actions, frame));
        }
    }

    private MacTable table(IOFSwitch sw) {
        var local = sw.getLocal();
        var table = (MacTable) local.get(tableKey);
        if (table == null) {
            table = new MacTable(tableSize, macAge);
            local.put(tableKey, table);
        }
        return table;
    }
}
