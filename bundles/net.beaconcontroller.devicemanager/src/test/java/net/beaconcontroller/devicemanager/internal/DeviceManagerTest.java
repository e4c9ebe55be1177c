package net.beaconcontroller.devicemanager.internal;

import static net.beaconcontroller.devicemanager.internal.Frames.arpReply;
import static net.beaconcontroller.devicemanager.internal.Frames.arpRequest;
import static net.beaconcontroller.devicemanager.internal.Frames.udp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.devicemanager.IDeviceListener;
import net.beaconcontroller.devicemanager.IDeviceManager;
import net.beaconcontroller.topology.SwitchPort;
import net.beaconcontroller.util.IPv4Address;

/** The device manager's decisions, against a fake topology, recording switches and a clock the test sets. */
class DeviceManagerTest {
    private static final long H1 = 0x0200_0000_0001L;
    private static final long H2 = 0x0200_0000_0002L;
    private static final long H3 = 0x0200_0000_0003L;
    private static final int IP1 = IPv4Address.parse("10.0.0.1");
    private static final int IP2 = IPv4Address.parse("10.0.0.2");
    private static final int IP3 = IPv4Address.parse("10.0.0.3");

    private Harness h = new Harness();

    @AfterEach
    void indexesAgreeAndNothingWasWritten() {
        assertEquals(List.of(), h.dm.inconsistencies());
        // Routing, one of its listeners, deletes the flows a move or a forgotten host leaves wrong.
        assertTrue(h.written.values().stream().allMatch(List::isEmpty), () -> "written to switches: " + h.written);
    }

    private Device device(long mac) {
        return h.dm.getDevice(mac, Device.NO_VLAN).orElseThrow(() -> new AssertionError("no device " + mac));
    }

    @Test
    void learnsAHostFromIpv4WithItsAttachmentAndAddress() {
        h.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        var d = device(H1);
        assertEquals(new SwitchPort(1, 3), d.attachment());
        assertEquals(Set.of(IP1), d.ipv4());
        assertEquals(Device.NO_VLAN, d.vlan());
        assertEquals(h.instant(), d.firstSeen());
        assertEquals(h.instant(), d.lastSeen());
        assertEquals(Optional.empty(), h.dm.getDevice(H2, Device.NO_VLAN), "a destination is not a sighting");
        assertEquals(List.of("added " + H1 + "@" + new SwitchPort(1, 3)), h.events);
    }

    @Test
    void arpGivesTheSenderIpButAProbeFromNoAddressGivesNone() {
        h.packetIn(1, 1, arpRequest(H1, 0, IP1));
        assertEquals(Set.of(), device(H1).ipv4(), "0.0.0.0 is a probe, not an address");
        h.packetIn(1, 2, arpReply(H2, IP2, H1, IP1));
        assertEquals(Set.of(IP2), device(H2).ipv4());
        assertEquals(Set.of(), device(H1).ipv4(), "the target of a reply learns nothing");
    }

    @Test
    void dhcpAckGivesTheClientItsAddress() {
        long server = H3;
        h.packetIn(1, 1, Frames.dhcpDiscover(H1));
        assertEquals(Set.of(), device(H1).ipv4(), "a client without an address yet sends from 0.0.0.0");
        h.packetIn(1, 3, Frames.dhcpAck(server, IP3, H1, IP1));
        assertEquals(Set.of(IP1), device(H1).ipv4());
        assertEquals(Set.of(IP3), device(server).ipv4());
        assertEquals(new SwitchPort(1, 1), device(H1).attachment(), "the ACK tells nothing of where the client is");
        assertTrue(h.events.contains("ips " + H1 + " []->[" + IP1 + "]"), h.events::toString);
    }

    @Test
    void dhcpAckForAnUnknownClientCreatesNoDevice() {
        h.packetIn(1, 3, Frames.dhcpAck(H3, IP3, H1, IP1));
        assertEquals(Optional.empty(), h.dm.getDevice(H1, Device.NO_VLAN));
        assertEquals(List.of(), h.dm.getDevicesByIpv4(IP1));
    }

    @Test
    void theSameMacOnTwoVlansIsTwoHosts() {
        h.packetIn(1, 1, udp(H1, H2, 10, IP1, IP2));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        assertEquals(10, h.dm.getDevice(H1, 10).orElseThrow().vlan());
        assertEquals(Device.NO_VLAN, device(H1).vlan());
        assertEquals(2, h.dm.getDevicesByMac(H1).size());
        assertEquals(2, h.dm.getDevicesByIpv4(IP1).size());
        assertEquals(Optional.empty(), h.dm.getDevice(H1, 11));
    }

    @Test
    void multicastAndBroadcastSourcesAreNeverDevices() {
        h.packetIn(1, 1, udp(0x0100_5e00_0001L, H2, IP1, IP2));
        h.packetIn(1, 1, udp(0xffff_ffff_ffffL, H2, IP1, IP2));
        assertEquals(List.of(), List.copyOf(h.dm.getDevices()));
        assertEquals(List.of(), h.events);
    }

    @Test
    void aFrameOnAnInterSwitchPortNeitherCreatesNorMovesButRefreshesLastSeen() {
        h.linkPorts.add(new SwitchPort(2, 4));
        h.packetIn(2, 4, udp(H1, H2, IP1, IP2));
        assertEquals(Optional.empty(), h.dm.getDevice(H1, Device.NO_VLAN), "a link port tells nothing of attachment");

        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.advance(Duration.ofSeconds(5));
        h.packetIn(2, 4, udp(H1, H2, IP1, IP2));
        var d = device(H1);
        assertEquals(new SwitchPort(1, 1), d.attachment());
        assertEquals(h.instant(), d.lastSeen());
        assertEquals(1, h.events.size(), h.events::toString);
    }

    @Test
    void aHostSeenAtAnotherEdgePortMovesAndListenersAreToldButNoFlowIsWritten() {
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        assertEquals(new SwitchPort(2, 3), device(H1).attachment());
        assertEquals(List.of(), h.dm.getDevicesAt(new SwitchPort(1, 1)));
        assertEquals(List.of("added " + H1 + "@" + new SwitchPort(1, 1),
                "moved " + H1 + " " + new SwitchPort(1, 1) + "->" + new SwitchPort(2, 3)), h.events);
        assertTrue(h.written.values().stream().allMatch(List::isEmpty), () -> "written at the move: " + h.written);
        assertEquals(1, h.dm.getCounters().moves());
    }

    /**
     * Right after a switch connects (or Beacon restarts) its ports are in quarantine and their links unknown: a copy
     * of a host's flooded frame coming in over such a link must not move the host there.
     */
    @Test
    void aCopyAtAPortInQuarantineDoesNotMoveAHostThatJustSpokeAtItsPlace() {
        var home = new SwitchPort(1, 1);
        var there = new SwitchPort(2, 3);
        h.quarantined.add(there);
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        assertEquals(home, device(H1).attachment());
        assertEquals(0, h.dm.getCounters().moves());
        assertEquals(1, h.events.size(), "no move told: " + h.events);

        // Silent at its place for longer than a copy takes: a frame there is the host itself.
        h.advance(Duration.ofSeconds(2));
        h.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        assertEquals(there, device(H1).attachment());
        assertEquals(1, h.dm.getCounters().moves());
    }

    /**
     * A ring closed through an unmanaged bridge at 1/4 and 3/4: a host's frame flooded into the bridge comes back at
     * the other port. It must not move the host there, however long it has been silent; a host known nowhere else
     * (behind the bridge) is placed at such a port, and stays at the first of them it was seen at.
     */
    @Test
    void aFrameAtABroadcastDomainPortMovesNoHostKnownAtAnotherEdgePort() {
        var home = new SwitchPort(1, 1);
        h.domainPorts.addAll(List.of(new SwitchPort(1, 4), new SwitchPort(3, 4)));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.advance(Duration.ofSeconds(10));
        h.packetIn(3, 4, udp(H1, H2, IP1, IP2));
        assertEquals(home, device(H1).attachment());
        h.packetIn(3, 4, udp(H2, H1, IP2, IP1));
        h.packetIn(1, 4, udp(H2, H1, IP2, IP1));
        assertEquals(new SwitchPort(3, 4), device(H2).attachment(), "behind the bridge");
        assertEquals(0, h.dm.getCounters().moves());
        // Its old port gone, the host is where the bridge is.
        h.gonePorts.add(home);
        h.packetIn(1, 4, udp(H1, H2, IP1, IP2));
        assertEquals(new SwitchPort(1, 4), device(H1).attachment());
    }

    @Test
    void aHostWhosePortWentMovesAtOnceEvenToAPortInQuarantine() {
        var there = new SwitchPort(2, 3);
        h.quarantined.add(there);
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.gonePorts.add(new SwitchPort(1, 1));
        h.packetIn(2, 3, udp(H1, H2, IP1, IP2));
        assertEquals(there, device(H1).attachment());
    }

    /** Routing, told of the removal, deletes the flows towards the host (see its FlowCleanup). */
    @Test
    void aHostAtAPortThatTurnsOutToBeALinkIsForgottenAndListenersAreTold() {
        h.packetIn(1, 3, udp(H1, H2, IP1, IP2));
        h.link(1, 3, 2, 1);
        assertEquals(Optional.empty(), h.dm.getDevice(H1, Device.NO_VLAN));
        assertEquals("removed " + H1, h.events.get(h.events.size() - 1));
        assertTrue(h.written.values().stream().allMatch(List::isEmpty), () -> "written: " + h.written);
    }

    @Test
    void aFlappingHostStaysPutUntilTheMinutePasses() {
        h = new Harness("devicemanager.maxMovesPerMinute=2");
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H1, H2, IP1, IP2));
        assertEquals(new SwitchPort(1, 1), device(H1).attachment(), "the third move in a minute is ignored");
        assertEquals(2, h.dm.getCounters().moves());
        assertEquals(2, h.dm.getCounters().movesSuppressed());
        assertEquals(2, h.events.stream().filter(e -> e.startsWith("moved")).count(), "only accepted moves are told");

        h.advance(Duration.ofSeconds(60));
        h.packetIn(1, 2, udp(H1, H2, IP1, IP2));
        assertEquals(new SwitchPort(1, 2), device(H1).attachment(), "a new minute, a new move");
    }

    @Test
    void hostsNotSeenForTheIdleTimeoutAgeOut() {
        h = new Harness("devicemanager.idleTimeout=10");
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H2, H1, IP2, IP1));
        h.advance(Duration.ofSeconds(6));
        h.packetIn(1, 2, udp(H2, H1, IP2, IP1));
        h.advance(Duration.ofSeconds(4));
        h.sweep();
        assertEquals(Optional.empty(), h.dm.getDevice(H1, Device.NO_VLAN));
        assertEquals(List.of(), h.dm.getDevicesByIpv4(IP1));
        assertEquals(new SwitchPort(1, 2), device(H2).attachment(), "seen 4 s ago: kept");
        assertEquals("removed " + H1, h.events.get(h.events.size() - 1));
        assertEquals(1, h.dm.getCounters().agedOut());
    }

    @Test
    void aChangedIdleTimeoutReschedulesTheSweep() {
        assertEquals(1, h.scheduled.size());
        h.dm.modified(Configs.of(DeviceManager.Config.class, "devicemanager.idleTimeout=5"));
        assertEquals(1, h.scheduled.size(), "the old sweep is cancelled");
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.advance(Duration.ofSeconds(5));
        h.sweep();
        assertEquals(List.of(), List.copyOf(h.dm.getDevices()));
        h.dm.deactivate();
        assertEquals(List.of(), h.scheduled, "nothing left scheduled");
    }

    @Test
    void aSwitchThatLeavesTakesItsHostsAlong() {
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H2, H1, IP2, IP1));
        h.packetIn(2, 1, udp(H3, H1, IP3, IP1));
        h.dm.removedSwitch(h.switches.get(1L));
        assertEquals(List.of(String.valueOf(H3)), Harness.macs(h.dm.getDevices()));
        assertEquals(List.of(), h.dm.getDevicesOn(1));
        assertEquals(2, h.events.stream().filter(e -> e.startsWith("removed")).count());
    }

    @Test
    void aPortThatBecomesALinkEndLosesItsHosts() {
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(2, 2, udp(H2, H1, IP2, IP1));
        h.packetIn(2, 3, udp(H3, H1, IP3, IP1));
        h.link(1, 1, 2, 2);
        assertEquals(List.of(String.valueOf(H3)), Harness.macs(h.dm.getDevices()));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        assertEquals(Optional.empty(), h.dm.getDevice(H1, Device.NO_VLAN), "not learned again on a link port");
    }

    @Test
    void malformedArpAndDhcpAreIgnoredAndCounted() {
        h.packetIn(1, 1, Frames.arpUnknownOperation(H1));
        h.packetIn(1, 1, Frames.arpTruncated(H1));
        h.packetIn(1, 1, Frames.malformedDhcp(H3, IP3, H1));
        assertEquals(List.of(), List.copyOf(h.dm.getDevices()), "bad input creates no device");
        h.packetIn(1, 1, udp(H3, H1, IP3, IP1));
        var before = device(H3);
        h.advance(Duration.ofSeconds(3));
        h.packetIn(2, 2, Frames.malformedDhcp(H3, IP2, H1));
        assertSame(before, device(H3), "nor changes one");
        assertEquals(2, h.dm.getCounters().malformedArp());
        assertEquals(2, h.dm.getCounters().malformedDhcp());
    }

    @Test
    void damagedArpAndDhcpFramesNeverThrow() {
        var random = new java.util.SplittableRandom(7);
        byte[][] originals = {Frames.dhcpAck(H3, IP3, H1, IP1), Frames.dhcpDiscover(H2), arpRequest(H1, IP1, IP2),
            arpReply(H2, IP2, H1, IP1)};
        for (int i = 0; i < 20_000; i++) {
            byte[] original = originals[random.nextInt(originals.length)];
            // Cut anywhere, then damage bytes past the Ethernet header (addresses and type stay plausible).
            byte[] frame = java.util.Arrays.copyOf(original, 14 + random.nextInt(original.length - 13));
            for (int n = random.nextInt(4); n > 0 && frame.length > 14; n--) {
                frame[14 + random.nextInt(frame.length - 14)] = (byte) random.nextInt(256);
            }
            h.packetIn(1 + random.nextInt(3), 1 + random.nextInt(4), frame);
        }
        var c = h.dm.getCounters();
        assertTrue(c.malformedArp() > 0 && c.malformedDhcp() > 0, c::toString);
    }

    @Test
    void everyLookUpAgrees() {
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 1, udp(H2, H1, IP2, IP1));
        h.packetIn(2, 5, udp(H3, H1, IP3, IP1));
        var d1 = device(H1);
        assertEquals(List.of(d1), List.copyOf(h.dm.getDevicesByMac(H1)));
        assertEquals(List.of(d1), List.copyOf(h.dm.getDevicesByIpv4(IP1)));
        assertEquals(List.of(String.valueOf(H1), String.valueOf(H2)),
                Harness.macs(h.dm.getDevicesAt(new SwitchPort(1, 1))));
        assertEquals(List.of(String.valueOf(H1), String.valueOf(H2)), Harness.macs(h.dm.getDevicesOn(1)));
        assertEquals(List.of(String.valueOf(H3)), Harness.macs(h.dm.getDevicesOn(2)));
        assertEquals(3, h.dm.getDevices().size());
        assertEquals(List.of(), List.copyOf(h.dm.getDevicesOn(3)));

        h.packetIn(3, 1, udp(H1, H2, IP1, IP2));
        assertEquals(List.of(String.valueOf(H2)), Harness.macs(h.dm.getDevicesAt(new SwitchPort(1, 1))));
        assertEquals(List.of(String.valueOf(H1)), Harness.macs(h.dm.getDevicesOn(3)));
        assertEquals(List.of(), h.dm.inconsistencies());
    }

    @Test
    void aPortWithManyHostsAndAnAddressOnManyVlansAreIndexedAsWell() {
        int many = 3 * DeviceStore.SMALL;
        for (int i = 0; i < many; i++) {
            h.packetIn(1, 1, udp(H1 + i, H2, i + 1, IP1, IP2));
        }
        var port = new SwitchPort(1, 1);
        assertEquals(many, h.dm.getDevicesAt(port).size());
        assertEquals(many, h.dm.getDevicesByIpv4(IP1).size());
        assertEquals(List.of(), h.dm.inconsistencies());
        for (int i = 0; i < many; i += 2) {
            h.packetIn(1, 2, udp(H1 + i, H2, i + 1, IP1, IP2));
        }
        assertEquals(many / 2, h.dm.getDevicesAt(port).size());
        assertEquals(many / 2, h.dm.getDevicesAt(new SwitchPort(1, 2)).size());
        h.dm.removedSwitch(h.switches.get(1L));
        assertEquals(List.of(), h.dm.getDevicesAt(port));
        assertEquals(List.of(), h.dm.getDevicesByIpv4(IP1));
        assertEquals(List.of(), h.dm.getDevicesOn(1));
    }

    @Test
    void aHostKeepsAtMostTheConfiguredNumberOfAddresses() {
        h = new Harness("devicemanager.maxIpsPerDevice=2");
        for (int i = 1; i <= 5; i++) {
            h.packetIn(1, 1, udp(H1, H2, IPv4Address.parse("192.168.0." + i), IP2));
        }
        assertEquals(2, device(H1).ipv4().size());
    }

    @Test
    void listenersAreToldExactlyTheChanges() {
        var failing = new IDeviceListener() {
            @Override
            public void deviceAdded(Device device) {
                throw new IllegalStateException("a broken listener");
            }

            @Override
            public void deviceMoved(Device before, Device now) {
                throw new IllegalStateException("a broken listener");
            }

            @Override
            public void deviceIpChanged(Device before, Device now) {
                throw new IllegalStateException("a broken listener");
            }

            @Override
            public void deviceRemoved(Device device) {
                throw new IllegalStateException("a broken listener");
            }
        };
        h.dm.addListener(failing);
        h.packetIn(1, 1, arpRequest(H1, 0, IP2));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.advance(Duration.ofSeconds(2));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        h.packetIn(1, 2, udp(H1, H2, IP1, IP2));
        h.dm.removedSwitch(h.switches.get(1L));
        h.dm.removeListener(failing);
        h.dm.removedSwitch(h.switches.get(1L));
        var p1 = new SwitchPort(1, 1);
        var p2 = new SwitchPort(1, 2);
        assertEquals(List.of("added " + H1 + "@" + p1, "ips " + H1 + " []->[" + IP1 + "]",
                "moved " + H1 + " " + p1 + "->" + p2, "removed " + H1), h.events);
    }

    @Test
    void theContextCarriesTheSourceAndDestinationHosts() {
        h.packetIn(1, 2, udp(H2, H1, IP2, IP1));
        var ctx = h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        assertEquals(device(H1), ctx.get(IDeviceManager.SRC_DEVICE));
        assertEquals(device(H2), ctx.get(IDeviceManager.DST_DEVICE));

        var arp = h.packetIn(1, 1, arpRequest(H1, IP1, IP2));
        assertEquals(device(H2), arp.get(IDeviceManager.DST_DEVICE), "a broadcast ARP request: found by target IP");

        var unknown = h.packetIn(1, 1, udp(H1, H3, IP1, IP3));
        assertNull(unknown.get(IDeviceManager.DST_DEVICE));
        h.linkPorts.add(new SwitchPort(2, 4));
        var fromLink = h.packetIn(2, 4, udp(H1, H2, IP1, IP2));
        assertEquals(device(H1), fromLink.get(IDeviceManager.SRC_DEVICE), "known, though seen on a link port");
        assertNull(h.packetIn(2, 4, udp(H3, H1, IP3, IP1)).get(IDeviceManager.SRC_DEVICE));
    }

    @Test
    void anUnchangedHostKeepsItsRecordWithinTheSecond() {
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        var first = device(H1);
        for (int i = 0; i < 100; i++) {
            h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        }
        assertSame(first, device(H1), "no new record per packet");
        h.advance(Duration.ofSeconds(1));
        h.packetIn(1, 1, udp(H1, H2, IP1, IP2));
        assertEquals(h.instant(), device(H1).lastSeen());
        assertFalse(first == device(H1));
    }
}
