package net.beaconcontroller.core.internal;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFType;

/** The {@code beacon:} console commands. */
@Component(service = BeaconCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=switches",
        "osgi.command.function=listeners"})
public final class BeaconCommands {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    @Reference
    private IBeaconProvider beacon;

    /** {@code beacon:switches}: one line per active switch. */
    public String switches() {
        var sb = new StringBuilder();
        sb.append(String.format("%-23s  %-21s  %-19s  %-12s  %12s  %12s%n", "DPID", "ADDRESS", "CONNECTED SINCE",
                "I/O THREAD", "MSGS IN", "MSGS OUT"));
        beacon.getSwitches().values().stream().sorted(Comparator.comparingLong(IOFSwitch::getId)).forEach(sw -> {
            var a = sw.getRemoteAddress();
            sb.append(String.format("%-23s  %-21s  %-19s  %-12s  %12d  %12d%n", sw.getStringId(),
                    a.getAddress().getHostAddress() + ":" + a.getPort(), TIME.format(sw.getConnectedSince()),
                    sw.getThreadName(), sw.getMessagesIn(), sw.getMessagesOut()));
        });
        sb.append(beacon.getSwitches().size()).append(" switch(es)");
        return sb.toString();
    }

    /** {@code beacon:listeners}: each message type's pipeline, in the order its listeners see a message. */
    public String listeners() {
        var sb = new StringBuilder();
        for (var type : OFType.values()) {
            var pipeline = beacon.getPipeline(type);
            if (!pipeline.isEmpty()) {
                sb.append(String.format("%-22s %s%n", type, String.join(" -> ", pipeline)));
            }
        }
        return sb.isEmpty() ? "no message listeners" : sb.toString().stripTrailing();
    }
}
