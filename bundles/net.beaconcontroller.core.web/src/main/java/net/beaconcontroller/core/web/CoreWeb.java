package net.beaconcontroller.core.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.web.IWebEvents;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;
import net.beaconcontroller.web.Metrics;

/**
 * The core's REST endpoints: switches, their statistics and features, and the listener pipelines; switches coming and
 * going as server push ({@code switch-added}, {@code switch-removed}).
 */
@Component(service = {IWebManageable.class, IOFSwitchListener.class})
public final class CoreWeb implements IWebManageable, IOFSwitchListener {
    private final IBeaconProvider beacon;
    private final IWebEvents events;
    private final List<Object> controllers;

    @Activate
    public CoreWeb(@Reference IBeaconProvider beacon, @Reference IWebEvents events) {
        this.beacon = beacon;
        this.events = events;
        controllers = List.of(new SwitchController(beacon));
    }

    @Override
    public String getName() {
        return "coreweb";
    }

    @Override
    public void addedSwitch(IOFSwitch sw) {
        events.publish("switch-added", SwitchController.json(sw));
    }

    @Override
    public void removedSwitch(IOFSwitch sw) {
        events.publish("switch-removed", Map.of("switchDPID", sw.getStringId()));
    }

    @Override
    public List<Object> controllers() {
        return controllers;
    }

    @Override
    public List<Page> pages() {
        return List.of(new Page("switches", "Switches", 20, "ui/switches.js"));
    }

    @Override
    public Map<String, Object> summary() {
        var m = new LinkedHashMap<String, Object>();
        m.put("# Switches", beacon.getSwitches().size());
        return m;
    }

    @Override
    public void metrics(Metrics metrics) {
        var switches = beacon.getSwitches().values();
        metrics.gauge("beacon_switches", "Connected switches.").add(switches.size());
        var in = metrics.counter("beacon_switch_messages_in_total", "OpenFlow messages received from a switch.");
        for (var sw : switches) {
            in.add(sw.getMessagesIn(), "dpid", sw.getStringId());
        }
        var out = metrics.counter("beacon_switch_messages_out_total", "OpenFlow messages sent to a switch.");
        for (var sw : switches) {
            out.add(sw.getMessagesOut(), "dpid", sw.getStringId());
        }
        var stats = beacon.getListenerStats();
        var calls = metrics.counter("beacon_listener_calls_total", "Messages a listener received, by message type.");
        stats.forEach(s -> calls.add(s.calls(), "type", s.type().name(), "listener", s.listener()));
        var errors = metrics.counter("beacon_listener_errors_total", "Listener calls that threw.");
        stats.forEach(s -> errors.add(s.errors(), "type", s.type().name(), "listener", s.listener()));
        var time = metrics.summary("beacon_listener_handling_seconds", "Time a listener took per message, measured"
                + " on one dispatch in 64.");
        for (var s : stats) {
            time.add("_sum", s.timedNanos() / 1e9, "type", s.type().name(), "listener", s.listener());
            time.add("_count", s.timedCalls(), "type", s.type().name(), "listener", s.listener());
        }
        var loops = beacon.getIoLoopStats();
        var busy = metrics.gauge("beacon_io_loop_busy_ratio", "Share of the last quarter second an I/O thread spent"
                + " working rather than waiting for the network.");
        loops.forEach(l -> busy.add(l.busyRatio(), "thread", l.thread()));
        var busySeconds = metrics.counter("beacon_io_loop_busy_seconds_total", "Time an I/O thread spent working.");
        loops.forEach(l -> busySeconds.add(l.busyNanos() / 1e9, "thread", l.thread()));
        var loopSwitches = metrics.gauge("beacon_io_loop_switches", "Switches an I/O thread serves.");
        loops.forEach(l -> loopSwitches.add(l.switches(), "thread", l.thread()));
        var r = beacon.getFlowReconciliationStats();
        metrics.counter("beacon_flow_reconciliations_total", "Flow tables reconciled (a switch connecting to this"
                + " controller as master, or this controller becoming its master), by how the table was read.")
                .add(r.runs() - r.timeouts(), "result", "read").add(r.timeouts(), "result", "timeout");
        metrics.counter("beacon_flows_reconciled_total", "Flows found or written by reconciliation, by outcome:"
                + " kept, deleted (stale or foreign by policy), pushed (missing), foreign (no Beacon cookie).")
                .add(r.kept(), "outcome", "kept").add(r.deleted(), "outcome", "deleted")
                .add(r.pushed(), "outcome", "pushed").add(r.foreign(), "outcome", "foreign");
    }
}
