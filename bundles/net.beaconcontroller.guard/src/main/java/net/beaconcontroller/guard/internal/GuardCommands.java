package net.beaconcontroller.guard.internal;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.guard.IGuard;
import net.beaconcontroller.util.Dpids;

/** The {@code beacon:guard} console command. */
@Component(service = GuardCommands.class, property = {"osgi.command.scope=beacon", "osgi.command.function=guard"})
public final class GuardCommands {
    private final IGuard guard;

    @Activate
    public GuardCommands(@Reference IGuard guard) {
        this.guard = guard;
    }

    /** {@code beacon:guard}: on or off, the budgets, then one line per port that ever went over one. */
    public String guard() {
        var b = guard.getBudgets();
        var sb = new StringBuilder();
        sb.append(String.format("PACKET_IN guard %s: port %d/s (burst %d), switch %d/s (burst %d), drop %d s,"
                + " priority %d%n", guard.isEnabled() ? "on" : "off", b.portRate(), b.portBurst(), b.switchRate(),
                b.switchBurst(), b.dropSeconds(), b.priority()));
        sb.append(String.format("%-23s  %5s  %14s  %16s  %10s  %8s%n", "SWITCH", "PORT", "DROPPED (PORT)",
                "DROPPED (SWITCH)", "DROP FLOWS", "EPISODES"));
        var c = guard.getCounters();
        for (var p : c.ports()) {
            sb.append(String.format("%-23s  %5d  %14d  %16d  %10d  %8d%n", Dpids.toString(p.dpid()), p.port(),
                    p.droppedByPort(), p.droppedBySwitch(), p.dropFlows(), p.episodes()));
        }
        sb.append(String.format("%d PACKET_IN(s) dropped, %d drop flow(s)", c.dropped(), c.dropFlows()));
        return sb.toString();
    }
}
