package net.beaconcontroller.cluster.internal;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.map.IMap;

/**
 * The members' reports ({@link MemberReport}, map {@code beacon.reports}): this member writes its own, and reads the
 * live members' for decisions, balancing and what the console shows.
 */
final class Reports {
    private static final Logger log = LoggerFactory.getLogger(Reports.class);

    private final IMap<String, byte[]> map;
    /** Guards writing this member's report, which handshake threads and the coordinator both do. */
    private final Object lock = new Object();
    /** The coordinator thread's. */
    private long lastSample = System.nanoTime();

    Reports(IMap<String, byte[]> map) {
        this.map = map;
    }

    /** The coordinator thread: each switch's PACKET_IN rate since the last sample (at most two a second). */
    void sample(Collection<SwitchState> switches) {
        long now = System.nanoTime();
        double seconds = (now - lastSample) / 1e9;
        if (seconds < 0.5) {
            return;
        }
        lastSample = now;
        for (var st : switches) {
            long count = st.packetIns;
            st.rate = Math.round((count - st.sampled) / seconds);
            st.sampled = count;
        }
    }

    /**
     * Writes this member's report: its switches, the role each granted it, their load. Any thread: the switches are
     * read under the lock, so a report never overwrites one made from a newer list.
     */
    void publish(String self, Switches switches) {
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuLoad() : -1;
        synchronized (lock) {
            var list = switches.all().stream()
                    .map(st -> new MemberReport.SwitchReport(st.sw.getId(), st.sw.getRole(), st.rate)).toList();
            map.set(self, new MemberReport(self, cpu, list).encode());
        }
    }

    /** The live members' latest reports (a member whose report does not decode is taken as connected to nothing). */
    Map<String, MemberReport> live(List<String> live) {
        var result = new HashMap<String, MemberReport>();
        map.getAll(new HashSet<>(live)).forEach((member, bytes) -> {
            try {
                result.put(member, MemberReport.decode(bytes));
            } catch (IllegalArgumentException e) {
                log.warn("cluster: member {}'s report ignored: {}", member, e.getMessage());
            }
        });
        return result;
    }

    /** The live members connected to a switch. */
    Set<String> connectedTo(long dpid, List<String> live) {
        return live(live).values().stream().filter(r -> r.find(dpid) != null).map(MemberReport::member)
                .collect(Collectors.toSet());
    }

    /** A member that left, or this member under an id it no longer has. */
    void remove(String member) {
        map.removeAsync(member);
    }
}
