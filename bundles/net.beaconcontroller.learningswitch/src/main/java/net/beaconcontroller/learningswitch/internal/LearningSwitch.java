package net.beaconcontroller.learningswitch.internal;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.core.SwitchLocal;
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
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.util.CoarseClock;
import net.beaconcontroller.util.MacAddress;
import net.beaconcontroller.util.MacTable;
import net.beaconcontroller.util.Prefetch;

/**
 * Layer-2 learning switch: learns which port each source MAC is behind, installs an exact-match flow towards a known
 * destination and floods to an unknown one.
 *
 * <p>The MAC table of a switch is thread-confined {@link SwitchLocal} state: only that switch's I/O thread touches
 * it, so it needs no locks.
 */
@Component(configurationPid = LearningSwitch.NAME, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = LearningSwitch.Config.class)
@BeaconListener(types = {OFType.PACKET_IN, OFType.PORT_STATUS})
public final class LearningSwitch implements IOFMessageListener {
    /** Names the learning switch as its flows' owner (see {@link FlowOwner}). */
    static final long COOKIE = FlowOwner.LEARNING_SWITCH.cookie();
    /** Its listener name (the default: the class name in lower case) and the prefix of its keys. */
    public static final String NAME = "learningswitch";
    private static final List<OFAction> FLOOD = List.of(new OFActionOutput(OFPort.FLOOD, 0));
    private static final List<OFAction> DROP = List.of();

    @ObjectClassDefinition(name = "Learning switch", description = "Layer-2 learning switch, one MAC table per switch.")
    public @interface Config {
        @AttributeDefinition(min = "0", max = "65535", description = "Idle timeout (seconds) of the flows it installs.")
        int idleTimeout() default 5;

        @AttributeDefinition(min = "0", max = "65535", description = "Hard timeout (seconds) of the flows it installs;"
                + " 0 = none.")
        int hardTimeout() default 0;

        @AttributeDefinition(min = "16", max = "16777216", description = "Most MAC addresses remembered per switch."
                + " Applies to tables made afterwards.")
        int tableSize() default 1 << 20;

        @AttributeDefinition(min = "1", max = "86400", description = "Seconds a learned MAC address is kept without"
                + " being seen again. Applies to tables made afterwards.")
        int macAge() default 300;
    }

    /**
     * The settings a packet needs, copied out of the configuration: Declarative Services hands over a dynamic proxy,
     * and a reflective call per FLOW_MOD would cost more than the rest of the decision.
     */
    private record Settings(int idleTimeout, int hardTimeout, int tableSize, int macAge) {
        Settings(Config c) {
            this(c.idleTimeout(), c.hardTimeout(), c.tableSize(), c.macAge());
        }
    }

    private final IBeaconProvider beacon;
    private final SwitchLocal<MacTable> tables;
    /** Read per packet, replaced whole by {@link #modified}: a listener never sees half a change. */
    private volatile Settings settings;

    @Activate
    public LearningSwitch(@Reference IBeaconProvider beacon, Config config) {
        this.beacon = beacon;
        this.settings = new Settings(config);
        // One key per instance: a restarted or updated bundle starts from empty tables.
        this.tables = new SwitchLocal<>("learningswitch.macTable", null);
    }

    @Modified
    void modified(Config next) {
        settings = new Settings(next);
    }

    @Deactivate
    void deactivate() {
        beacon.clearLocal(tables);
    }

    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        if (msg instanceof OFPacketIn pi) {
            packetIn(sw, pi, ctx);
        } else if (msg instanceof OFPortStatus ps
                && (ps.reason() == OFPortStatus.Reason.DELETE || ps.desc().isDown())) {
            // A switch that has sent no packet yet has no table: nothing to forget, and none to make for it.
            var table = sw.getLocal(tables);
            if (table != null) {
                table.removeValue(ps.desc().portNo());
            }
        }
        return Command.CONTINUE;
    }

    @Override
    public void prefetch(IOFSwitch sw, int inPort, Frame frame, Prefetch prefetch) {
        var table = sw.getLocal(tables);
        if (table != null && frame.isEthernet()) {
            table.prefetch(frame.dlSrc(), prefetch);
            table.prefetch(frame.dlDst(), prefetch);
        }
    }

    private void packetIn(IOFSwitch sw, OFPacketIn pi, MessageContext ctx) {
        var frame = ctx.frame();
        if (!frame.isEthernet()) {
            return;
        }
        long src = frame.dlSrc();
        int inPort = pi.inPort();
        int now = CoarseClock.seconds();
        var table = sw.getLocal(tables);
        if (table == null) {
            var s = settings;
            table = new MacTable(s.tableSize(), s.macAge());
            sw.setLocal(tables, table);
        }
        if (!MacAddress.isMulticast(src)) {
            table.put(src, inPort, now);
        }
        int outPort = frame.isMulticast() ? MacTable.ABSENT : table.get(frame.dlDst(), now);
        if (outPort == MacTable.ABSENT) {
            sw.write(OFPacketOut.of(pi, FLOOD));
            return;
        }
        var c = settings;
        // A frame for the port it came from goes nowhere: the flow drops such frames at the switch from now on.
        List<OFAction> actions = outPort == inPort ? DROP : List.of(new OFActionOutput(outPort, 0));
        sw.write(OFFlowMod.builder()
                .match(OFMatch.fromFrame(frame, inPort))
                .cookie(COOKIE)
                .idleTimeout(c.idleTimeout())
                .hardTimeout(c.hardTimeout())
                .bufferId(pi.bufferId())
                .actions(actions)
                .build());
        if (!pi.isBuffered() && outPort != inPort) {
            sw.write(OFPacketOut.unbuffered(0, inPort, actions, pi.frame()));
        }
    }
}
