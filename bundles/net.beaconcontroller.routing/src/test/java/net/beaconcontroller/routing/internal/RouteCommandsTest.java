package net.beaconcontroller.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.util.IPv4Address;

/** {@code beacon:route} on a line 1 - 2 with host A on 1/3 and host B on 2/3. */
class RouteCommandsTest {
    final FakeNetwork net = new FakeNetwork();
    final RouteCommands commands = new RouteCommands(net.devices);

    RouteCommandsTest() {
        net.cable(1, 2, 2, 1);
        net.host(0x0a, 1, 3, IPv4Address.parse("10.0.0.1"));
        net.host(0x0b, 2, 3, IPv4Address.parse("10.0.0.2"));
        net.host(0x0c, 9, 1);
    }

    @Test
    void printsTheHopsBetweenHostsGivenByMacOrIp() {
        commands.bindEngine(net.new BfsEngine());
        var expected = """
                DPID                     IN PORT  OUT PORT
                00:00:00:00:00:00:00:01        3         2
                00:00:00:00:00:00:00:02        1         3
                2 hop(s)""";
        assertEquals(expected, commands.route("00:00:00:00:00:0a", "10.0.0.2").replace(System.lineSeparator(), "\n"));
        assertEquals(expected, commands.route("10.0.0.1", "00-00-00-00-00-0B").replace(System.lineSeparator(), "\n"));
    }

    @Test
    void saysWhyThereIsNoRoute() {
        assertEquals("no routing engine is running", commands.route("10.0.0.1", "10.0.0.2"));
        var engine = net.new BfsEngine();
        commands.bindEngine(engine);
        assertEquals("unknown host 10.0.0.9", commands.route("10.0.0.1", "10.0.0.9"));
        assertEquals("not a MAC or IPv4 address: 'h1'", commands.route("h1", "10.0.0.2"));
        assertEquals("not an IPv4 address: '10.0.0'", commands.route("10.0.0", "10.0.0.2"));
        assertEquals("no route from 10.0.0.1 at 00:00:00:00:00:00:00:01/3 to 00:00:00:00:00:0c at"
                + " 00:00:00:00:00:00:00:09/1: different islands", commands.route("10.0.0.1", "00:00:00:00:00:0c"));
        commands.unbindEngine(engine);
        assertEquals("no routing engine is running", commands.route("10.0.0.1", "10.0.0.2"));
    }
}
