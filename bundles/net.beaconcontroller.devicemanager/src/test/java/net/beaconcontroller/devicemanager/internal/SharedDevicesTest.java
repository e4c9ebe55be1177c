package net.beaconcontroller.devicemanager.internal;

import static net.beaconcontroller.devicemanager.internal.Frames.udp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.core.shared.SharedTable;
import net.beaconcontroller.core.test.MemorySharedState;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.IPv4Address;

/** Two members of a cluster, each a device manager, sharing their hosts; the members' clocks agree. */
class SharedDevicesTest {
    private static final long H1 = 0x0200_0000_0001L;
    private static final long H2 = 0x0200_0000_0002L;
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");
    private static final int IP3 = IPv4Address.parse("10.0.0.3");
    private final MemorySharedState cluster = new MemorySharedState();
    /** A member that is neither of the two. */
    private final SharedTable<Long, SharedDevices.Record> other = SharedTable.open(cluster, SharedDevices.TABLE,
            SharedKeys.HEX, SharedDevices.CODEC);
    private final AtomicInteger writes = new AtomicInteger();
    private final Harness one = new Harness(cluster);
    private final Harness two = new Harness(cluster);

    SharedDevicesTest() {
        cluster.map(SharedDevices.TABLE).subscribe((k, v) -> writes.incrementAndGet());
        // Subscribed before anything is written: an entry written meanwhile would be told twice.
        cluster.settle();
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), one.dm.inconsistencies());
        assertEquals(List.of(), two.dm.inconsistencies());
        // Routing on each member deletes a moved host's flows on the switches that member masters.
        for (var h : List.of(one, two)) {
            assertTrue(h.written.values().stream().allMatch(List::isEmpty), () -> "written: " + h.written);
        }
        cluster.close();
    }

    private static Optional<Device> host(Harness h, long mac) {
        return h.dm.getDevice(mac, Device.NO_VLAN);
    }

    private void advance(Duration d) {
        one.advance(d);
        two.advance(d);
    }

    @Test
    void aHostOneMemberLearnedIsKnownToTheOtherAndIsItsDestination() {
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(host(one, H1), host(two, H1));
        assertEquals(new SwitchPort(1, 3), host(two, H1).orElseThrow().attachment());
        assertEquals(Set.of(IP1), host(two, H1).orElseThrow().ipv4());
        assertEquals(List.of("added " + H1 + "@" + new SwitchPort(1, 3)), two.events);
        // Frames to it entering a switch the second member masters find it there.
        var ctx = two.packetIn(2, 3, udp(H2, H1, IP2, IP1));
        assertEquals(host(one, H1).orElseThrow(), ctx.get(IDeviceManager.DST_DEVICE));
        cluster.settle();
        assertEquals(new SwitchPort(2, 3), host(one, H2).orElseThrow().attachment());
    }

    @Test
    void aMoveTheOtherMemberSawMovesTheHostHereAndBothTellTheirListenersWithoutWritingAFlow() {
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        advance(Duration.ofSeconds(2));
        two.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(new SwitchPort(2, 3), host(one, H1).orElseThrow().attachment());
        assertEquals(host(two, H1), host(one, H1));
        assertTrue(one.events.contains("moved " + H1 + " " + new SwitchPort(1, 3) + "->" + new SwitchPort(2, 3)),
                one.events::toString);
        assertTrue(two.events.contains("moved " + H1 + " " + new SwitchPort(1, 3) + "->" + new SwitchPort(2, 3)),
                two.events::toString);
        assertTrue(one.written.values().stream().allMatch(List::isEmpty), () -> "written: " + one.written);
        assertTrue(two.written.values().stream().allMatch(List::isEmpty), () -> "written: " + two.written);
        assertEquals(List.of(0L, 1L), List.of(one.dm.getCounters().moves(), two.dm.getCounters().moves()),
                "counted by the member that saw it");
        // A frame the first member still had in flight from the old port, older than the move, changes nothing.
        advance(Duration.ofSeconds(-1));
        write(new Device(H1, Device.NO_VLAN, Set.of(IP1), new SwitchPort(1, 3), one.instant(), one.instant()));
        cluster.settle();
        assertEquals(new SwitchPort(2, 3), host(two, H1).orElseThrow().attachment());
    }

    @Test
    void aKnownHostIsWrittenAgainOncePerRefreshPeriodNotPerFrame() {
        // To the start of a 30 s period (idle timeout 300 s / 10).
        advance(Duration.ofSeconds(30 - one.now.get() % 30));
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        int first = writes.get();
        assertEquals(1, first);
        for (int s = 1; s < 30; s++) {
            advance(Duration.ofSeconds(1));
            one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        }
        cluster.settle();
        assertEquals(1, writes.get(), "the same 30 s period (idle timeout 300 s / 10)");
        advance(Duration.ofSeconds(1));
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(2, writes.get());
        assertEquals(host(one, H1), host(two, H1));
        // The other member ages it no earlier than the member that sees it.
        advance(Duration.ofSeconds(299));
        one.sweep();
        two.sweep();
        assertTrue(host(one, H1).isPresent() && host(two, H1).isPresent());
        advance(Duration.ofSeconds(1));
        one.sweep();
        two.sweep();
        assertTrue(host(one, H1).isEmpty() && host(two, H1).isEmpty());
    }

    @Test
    void aMemberKeepsWhatItLearnedWithinASecondAndTwoMembersSeeingAHostAtOnceAgree() {
        // Within one second one sees the host at 1/3, then at 1/4 with another address: the older record coming back
        // from the cluster changes nothing.
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        one.packetIn(1, 4, udp(H1, H2, IP3, IP2));
        cluster.settle();
        assertEquals(new SwitchPort(1, 4), host(one, H1).orElseThrow().attachment());
        assertEquals(host(one, H1), host(two, H1));
        assertEquals(Set.of(IP1, IP3), host(two, H1).orElseThrow().ipv4());
        // In the same second both see it, at different ports (it moved between their switches): both keep the same
        // one of the two records, and its next frame, at the port it is at now, moves it there on both.
        advance(Duration.ofSeconds(1));
        one.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        two.packetIn(3, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(host(one, H1), host(two, H1));
        advance(Duration.ofSeconds(1));
        two.packetIn(3, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(new SwitchPort(3, 3), host(one, H1).orElseThrow().attachment());
        assertEquals(new SwitchPort(3, 3), host(two, H1).orElseThrow().attachment());
    }

    @Test
    void aMoveSeenAfterTheOtherMembersRecordWinsOnBothWithinTheSameSecond() {
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        advance(Duration.ofSeconds(1));
        one.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        // Two has one's record of this second, then sees the host at its own switch in the same second.
        two.packetIn(3, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertEquals(new SwitchPort(3, 3), host(one, H1).orElseThrow().attachment());
        assertEquals(host(one, H1), host(two, H1));
    }

    @Test
    void anAddressOnlyAnotherMemberSawIsKeptThoughItsRecordIsOlder() {
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        advance(Duration.ofSeconds(5));
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        // Two saw a DHCP server give the host IP3 (from a frame on its own switch), with its older copy of the host.
        write(new Device(H1, Device.NO_VLAN, Set.of(IP1, IP3), new SwitchPort(1, 3), one.instant().minusSeconds(5),
                one.instant().minusSeconds(5)));
        cluster.settle();
        assertEquals(Set.of(IP1, IP3), host(one, H1).orElseThrow().ipv4());
        assertEquals(one.instant(), host(one, H1).orElseThrow().lastSeen(), "its own, later, last-seen time");
    }

    @Test
    void recordsOfLinkPortsIdleHostsAndBadBytesAreNotTaken() {
        two.linkPorts.add(new SwitchPort(1, 1));
        var t = two.instant();
        write(new Device(H1, Device.NO_VLAN, Set.of(), new SwitchPort(1, 1), t, t));
        var old = t.minusSeconds(300);
        write(new Device(H2, Device.NO_VLAN, Set.of(), new SwitchPort(1, 2), old, old));
        var map = cluster.map(SharedDevices.TABLE);
        map.set("3", new byte[] {1, 2, 3}, Duration.ofMinutes(5));
        // A whole record, as another member writes it, cut short on the way.
        var key = Long.toHexString(DeviceStore.key(H2, 7));
        byte[] whole;
        try (var elsewhere = new MemorySharedState()) {
            SharedTable.open(elsewhere, SharedDevices.TABLE, SharedKeys.HEX, SharedDevices.CODEC).put(DeviceStore.key(H2, 7),
                    new SharedDevices.Record(new Device(H2, 7, Set.of(IP2), new SwitchPort(1, 2), t, t), 1));
            whole = elsewhere.map(SharedDevices.TABLE).get(key).toCompletableFuture().join();
        }
        map.set(key, Arrays.copyOf(whole, whole.length - 1), Duration.ofMinutes(5));
        cluster.settle();
        assertEquals(List.of(), List.copyOf(two.dm.getDevices()));
    }

    @Test
    void aRecordForAPortNotYetAnEdgePortHereIsTakenWhenItsSwitchIsAdded() {
        // As after a restart: the record comes before this member's topology knows the port.
        two.linkPorts.add(new SwitchPort(1, 3));
        one.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        cluster.settle();
        assertTrue(host(two, H1).isEmpty());
        two.linkPorts.remove(new SwitchPort(1, 3));
        two.dm.addedSwitch(two.switches.get(1L));
        assertEquals(host(one, H1), host(two, H1));
    }

    @Test
    void recordsRoundTrip() throws IOException {
        var d = new Device(0xffff_ffff_fffeL, 4095, Set.of(IP1, IP2, -2), new SwitchPort(-1L, 0xff00),
                Instant.ofEpochSecond(1), Instant.ofEpochSecond(1_800_000_000L));
        var none = new Device(H1, Device.NO_VLAN, Set.of(), new SwitchPort(1, 1), Instant.EPOCH, Instant.EPOCH);
        for (var r : List.of(new SharedDevices.Record(d, 7), new SharedDevices.Record(none, 0))) {
            var bytes = new ByteArrayOutputStream();
            SharedDevices.CODEC.write(r, new DataOutputStream(bytes));
            assertEquals(r, SharedDevices.CODEC.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        }
        assertThrows(EOFException.class, () -> SharedDevices.CODEC.read(new DataInputStream(
                new ByteArrayInputStream(new byte[10]))));
    }

    /** The other member's record of {@code d}, at version 1. */
    private void write(Device d) {
        other.set(DeviceStore.key(d.mac(), d.vlan()), new SharedDevices.Record(d, 1), Duration.ofMinutes(5));
    }
}
