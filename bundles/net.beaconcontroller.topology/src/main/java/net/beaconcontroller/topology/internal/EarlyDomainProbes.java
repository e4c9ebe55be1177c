package net.beaconcontroller.topology.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

/**
 * BDDP probes that came back while an end was in quarantine, held until that quarantine ends. On a plain cable Open
 * vSwitch may hand the controller a port's BDDP before the LLDP sent just ahead of it (seen for every cable of a ring
 * as Beacon restarted); taken at once, the cable would be a broadcast domain until the LLDP came, and hosts' packets
 * that crossed it would be taken for copies a bridge sent round. So such a probe only becomes a broadcast-domain link
 * once the quarantine of its ends is over, if no LLDP link ends at them by then; meanwhile those ends stay in
 * quarantine (held), so they do not flood as edge ports in between. Owned by {@link TopologyStore}, under its lock.
 */
final class EarlyDomainProbes {
    /** A probe across {@code link}, last seen at {@code seen}, to be judged at {@code due}. */
    record Early(Link link, long seen, long due) { }

    /** What is due: the probes to take as links, and the held ports to let go with the deadline they were held to. */
    record Due(List<Early> probes, Map<SwitchPort, Long> released) { }

    /** A held port: the end of its own quarantine, and the deadline it was held to. */
    private record Held(long quarantineEnd, long until) { }

    private final Map<Link, Early> early = new HashMap<>();
    private final Map<SwitchPort, Held> held = new HashMap<>();

    /**
     * A probe across {@code link} came back at {@code now}; {@code quarantined} are its ends in quarantine, each with
     * the end of that quarantine.
     *
     * @return the ports to hold, each with the deadline to hold it to: the end of its own quarantine plus {@code hold},
     *         a bound in case the expiry task stops
     */
    Map<SwitchPort, Long> add(Link link, long now, Map<SwitchPort, Long> quarantined, long hold) {
        long due = Long.MIN_VALUE;
        for (var e : quarantined.entrySet()) {
            // A port already held: its quarantine ended where it ended, the hold does not push the judgement on.
            var h = held.get(e.getKey());
            long end = h != null ? h.quarantineEnd() : e.getValue();
            due = due == Long.MIN_VALUE || end - due > 0 ? end : due;
        }
        early.merge(link, new Early(link, now, due), (a, b) -> new Early(link, now, b.due - a.due > 0 ? b.due : a.due));
        var toHold = new HashMap<SwitchPort, Long>();
        for (var e : quarantined.entrySet()) {
            var h = held.computeIfAbsent(e.getKey(), k -> new Held(e.getValue(), e.getValue() + hold));
            toHold.put(e.getKey(), h.until());
        }
        return toHold;
    }

    /** The probes due by {@code now}, and the held ports no probe still waiting ends at. */
    Due due(long now) {
        var probes = new ArrayList<Early>();
        early.values().removeIf(e -> {
            if (e.due - now > 0) {
                return false;
            }
            probes.add(e);
            return true;
        });
        var released = new HashMap<SwitchPort, Long>();
        held.entrySet().removeIf(h -> {
            var p = h.getKey();
            if (early.keySet().stream().anyMatch(l -> l.src().equals(p) || l.dst().equals(p))) {
                return false;
            }
            released.put(p, h.getValue().until());
            return true;
        });
        return new Due(probes, released);
    }
}
