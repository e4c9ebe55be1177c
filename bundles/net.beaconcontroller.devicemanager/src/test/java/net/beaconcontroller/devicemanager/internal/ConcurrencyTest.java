package net.beaconcontroller.devicemanager.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.packet.Frame;
import net.beaconcontroller.topology.SwitchPort;

/**
 * Several I/O threads feed PACKET_INs for the same MACs on a few crowded ports (moving them between ports and giving
 * them addresses) while another removes hosts as switch departures, new links and aging do: afterwards every index
 * agrees with the hosts' records.
 */
class ConcurrencyTest {
    private static final int THREADS = 4;
    private static final int PACKETS = 10_000;
    private static final int MACS = 96;

    @Test
    void indexesStayConsistentUnderConcurrentUpdates() throws Exception {
        var h = new Harness("devicemanager.maxMovesPerMinute=100000", "devicemanager.idleTimeout=1");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        var start = new CyclicBarrier(THREADS + 1);
        try {
            var work = new ArrayList<Future<?>>();
            for (int t = 0; t < THREADS; t++) {
                long seed = t;
                work.add(pool.submit(() -> {
                    start.await();
                    var random = new SplittableRandom(seed);
                    var frame = new Frame();
                    for (int i = 0; i < PACKETS; i++) {
                        long mac = 0x0200_0000_0000L + random.nextInt(MACS);
                        int ip = 0x0a00_0000 + random.nextInt(MACS * 2) + 1;
                        long dpid = 1 + random.nextInt(3);
                        int port = 1 + random.nextInt(2); // crowded ports: their index entries outgrow the small sets
                        int vlan = random.nextInt(4) == 0 ? 5 : Frames.UNTAGGED;
                        h.packetIn(frame, dpid, port, Frames.udp(mac, 0x0200_0000_0000L + random.nextInt(MACS), vlan,
                                ip, ip + 1));
                    }
                    return null;
                }));
            }
            work.add(pool.submit(() -> {
                start.await();
                var random = new SplittableRandom(99);
                for (int i = 0; i < 2_000; i++) {
                    switch (random.nextInt(3)) {
                        case 0 -> h.dm.removedSwitch(h.switches.get(1L + random.nextInt(3)));
                        case 1 -> h.dm.linkAdded(net.beaconcontroller.topology.Link.of(1 + random.nextInt(3),
                                1 + random.nextInt(4), 1 + random.nextInt(3), 5));
                        default -> {
                            h.advance(Duration.ofSeconds(1));
                            h.sweep();
                        }
                    }
                }
                return null;
            }));
            for (var f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(), h.dm.inconsistencies());
        var all = h.dm.getDevices();
        assertTrue(all.size() <= 2 * MACS);
        for (Device d : all) {
            assertEquals(List.of(d), List.copyOf(h.dm.getDevicesByMac(d.mac())).stream()
                    .filter(x -> x.vlan() == d.vlan()).toList());
            assertTrue(h.dm.getDevicesAt(d.attachment()).contains(d));
            assertTrue(h.dm.getDevicesOn(d.attachment().dpid()).contains(d));
            d.ipv4().forEach(ip -> assertTrue(h.dm.getDevicesByIpv4(ip).contains(d)));
        }
        int counted = 0;
        for (long dpid = 1; dpid <= 3; dpid++) {
            for (int port = 1; port <= 5; port++) {
                counted += h.dm.getDevicesAt(new SwitchPort(dpid, port)).size();
            }
        }
        assertEquals(all.size(), counted, "every host at exactly one port");
    }
}
