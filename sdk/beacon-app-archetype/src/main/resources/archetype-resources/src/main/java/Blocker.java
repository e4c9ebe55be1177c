#set( $pid = $artifactId.replaceAll("[^A-Za-z0-9]", "") )
package ${package};

import java.util.concurrent.atomic.AtomicLong;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.BeaconListener;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.MessageContext;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;
import net.beaconcontroller.util.IPv4Address;

/**
 * Keeps one address unreachable: every IPv4 packet a switch sends up towards it ends here, before the learning switch
 * or routing could forward it. Settings: {@code ${pid}.blocked} and {@code ${pid}.logEvery} in beacon.properties.
 */
@Component(configurationPid = Blocker.PID, configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = Blocker.Config.class)
@BeaconListener(types = OFType.PACKET_IN, before = {"learningswitch", "routing"})
public final class Blocker implements IOFMessageListener {
    static final String PID = "${pid}";
    private static final Logger log = LoggerFactory.getLogger(Blocker.class);

    @ObjectClassDefinition(name = "${artifactId}")
    public @interface Config {
        @AttributeDefinition(description = "IPv4 address no packet may reach")
        String blocked() default "10.0.0.2";

        @AttributeDefinition(description = "log a line every this many blocked packets; 0: never")
        int logEvery() default 1;
    }

    private final int blocked;
    private final int logEvery;
    private final AtomicLong count = new AtomicLong();

    @Activate
    public Blocker(Config config) {
        try {
            blocked = IPv4Address.parse(config.blocked());
        } catch (IllegalArgumentException e) {
            // Reported as one line naming the key and the value; only this app stays inactive.
            throw new SettingException(PID + ".blocked", config.blocked(), "an IPv4 address");
        }
        logEvery = config.logEvery();
    }

    @Override
    public String getName() {
        return PID;
    }

    /** Runs on the switch's I/O thread: never block here. */
    @Override
    public Command receive(IOFSwitch sw, OFMessage msg, MessageContext ctx) {
        var frame = ctx.frame();
        if (!frame.isIpv4() || frame.ipv4Dst() != blocked) {
            return Command.CONTINUE;
        }
        long n = count.incrementAndGet();
        if (logEvery > 0 && n % logEvery == 0) {
            log.info("${pid}: {} packets to {} blocked", n, IPv4Address.toString(blocked));
        }
        return Command.STOP;
    }
}
