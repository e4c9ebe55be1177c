package net.beaconcontroller.maple.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Packet;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.maple.Route;
import net.beaconcontroller.topology.Link;
import net.beaconcontroller.topology.SwitchPort;

class TracedPacketTest {
    private static final SwitchPort IN = new SwitchPort(1, 1);
    private static final int TCP = 6;

    private static Header ipv4(int proto, int src, int dst, int tpDst) {
        return Header.of(IN, 0xa, 0xb, Field.VLAN_NONE, 0, Field.ETH_IPV4, 0, proto, src, dst, 1234, tpDst);
    }

    private static List<Event> events(Header h, Policy policy) {
        return Tracer.trace(policy, h, FakeNetwork.oneSwitch(1)).events();
    }

    private static Event read(Field f, long v) {
        return new Event.Read(f, v);
    }

    @Test
    void anAddressReadFirstReadsTheEtherType() {
        var h = ipv4(TCP, 0x0a000001, 0x0a000002, 80);
        assertEquals(List.of(read(Field.DL_TYPE, 0x800), read(Field.NW_SRC, 0x0a000001)), events(h, (p, env) -> {
            p.nwSrc();
            return Route.DROP;
        }));
    }

    @Test
    void aPortReadFirstReadsTheEtherTypeAndTheProtocol() {
        var h = ipv4(TCP, 1, 2, 80);
        assertEquals(List.of(read(Field.DL_TYPE, 0x800), read(Field.NW_PROTO, TCP), read(Field.TP_DST, 80)),
                events(h, (p, env) -> p.tpDst() == 80 ? Route.DROP : Route.FLOOD));
    }

    @Test
    void aFieldThePacketDoesNotHaveReadsZeroAndOnlyItsPrerequisitesAreRecorded() {
        var ipv6 = Header.of(IN, 0xa, 0xb, Field.VLAN_NONE, 0, 0x86dd, 0, TCP, 5, 6, 7, 8);
        assertEquals(0, ipv6.nwSrc(), "a switch sees no IPv4 source in an IPv6 packet");
        assertEquals(List.of(read(Field.DL_TYPE, 0x86dd)), events(ipv6, (p, env) -> {
            assertEquals(0, p.nwSrc());
            assertFalse(p.ipSrcIn(0x0a000000, 8));
            return Route.DROP;
        }));
        var gre = ipv4(47, 1, 2, 80);
        assertEquals(0, gre.tpDst());
        assertEquals(List.of(read(Field.DL_TYPE, 0x800), read(Field.NW_PROTO, 47)), events(gre, (p, env) -> {
            assertEquals(0, p.tpDst());
            return Route.DROP;
        }));
        var untagged = ipv4(TCP, 1, 2, 80);
        assertEquals(List.of(read(Field.DL_VLAN, Field.VLAN_NONE)), events(untagged, (p, env) -> {
            assertEquals(0, p.dlVlanPcp());
            return Route.DROP;
        }));
    }

    @Test
    void aTestWhoseAnswerIsKnownIsNotRecordedAgain() {
        var h = ipv4(TCP, 1, 2, 80);
        var isIpv4 = new Event.Check(new FieldTest.Equals(Field.DL_TYPE, 0x800L), true);
        assertEquals(List.of(isIpv4), events(h, (p, env) -> {
            assertTrue(p.isIpv4());
            assertTrue(p.isIpv4());
            assertFalse(p.isArp());
            assertEquals(0x800, p.dlType());
            return Route.DROP;
        }));
    }

    @Test
    void prefixTestsFollowFromEachOther() {
        var h = ipv4(TCP, 0x0a010203, 2, 80);
        List<Event> events = events(h, (p, env) -> {
            assertTrue(p.ipSrcIn(0x0a000000, 8));
            assertFalse(p.ipSrcIn(0x0b000000, 8)); // disjoint from 10/8: known
            assertTrue(p.ipSrcIn(0x0a010000, 16));
            assertTrue(p.ipSrcIn(0x0a000000, 7)); // holds 10.1/16: known
            assertFalse(p.ipSrcIn(0x0a010300, 24));
            assertFalse(p.ipSrcIn(0x0a010380, 25)); // inside what is known to be out
            assertTrue(p.ipSrcIn(0, 0)); // everything
            return Route.DROP;
        });
        assertEquals(List.of(read(Field.DL_TYPE, 0x800),
                new Event.Check(new FieldTest.Prefix(Field.NW_SRC, 0x0a000000, 8), true),
                new Event.Check(new FieldTest.Prefix(Field.NW_SRC, 0x0a010000, 16), true),
                new Event.Check(new FieldTest.Prefix(Field.NW_SRC, 0x0a010300, 24), false)), events);
    }

    @Test
    void environmentReadsAndTheRoutesPortsAreDependencies() {
        var net = FakeNetwork.ringWithChord(1);
        long a = net.hosts.keySet().stream().filter(m -> net.hosts.get(m).dpid() == 1).findFirst().get();
        long b = net.hosts.keySet().stream().filter(m -> net.hosts.get(m).dpid() == 2).findFirst().get();
        var h = Header.of(net.hosts.get(a), a, b, Field.VLAN_NONE, 0, 0x86dd, 0, 0, 0, 0, 0, 0);
        Trace t = Tracer.trace(TestPolicies::l2, h, net);
        var deps = t.dependencies();
        assertEquals(java.util.Set.of(a, b), deps.hosts());
        assertTrue(deps.topology());
        assertTrue(deps.ports().containsAll(List.of(new SwitchPort(1, 1), new SwitchPort(2, 2),
                net.hosts.get(a), net.hosts.get(b))), deps.ports().toString());
        assertEquals(List.of(read(Field.DL_DST, b), read(Field.DL_SRC, a)), t.events());
    }

    @Test
    void aPolicyReturningNoRouteIsAnError() {
        Environment none = new Environment() {
            @Override
            public Optional<SwitchPort> hostLocation(long mac) {
                return Optional.empty();
            }

            @Override
            public Optional<List<Link>> path(long src, long dst) {
                return Optional.empty();
            }
        };
        Policy broken = (Packet p, Environment env) -> null;
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Tracer.trace(broken, ipv4(TCP, 1, 2, 3), none));
        assertTrue(e.getMessage().contains("no route"), e.getMessage());
    }
}
