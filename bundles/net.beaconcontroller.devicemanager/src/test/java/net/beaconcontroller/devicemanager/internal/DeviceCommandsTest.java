package net.beaconcontroller.devicemanager.internal;

import static net.beaconcontroller.devicemanager.internal.Frames.arpRequest;
import static net.beaconcontroller.devicemanager.internal.Frames.udp;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.util.IPv4Address;

/** {@code beacon:devices} over a device manager fed PACKET_INs. */
class DeviceCommandsTest {
    private static final long H1 = 0x0200_0000_0001L;
    private static final long H2 = 0x0200_0000_0002L;
    private static final long H3 = 0x0200_0000_0003L;
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final Harness h = new Harness();

    @Test
    void listsHostsByMacThenVlanAndTheCounters() {
        int ip1 = IPv4Address.parse("10.0.0.1");
        h.packetIn(1, 1, udp(H1, H2, ip1, IPv4Address.parse("10.0.0.2")));
        h.packetIn(1, 1, arpRequest(H1, IPv4Address.parse("10.0.0.11"), ip1));
        h.packetIn(1, 2, udp(H1, H2, 7, IPv4Address.parse("10.0.7.1"), IPv4Address.parse("10.0.7.2")));
        h.packetIn(1, 3, Frames.dhcpDiscover(H3));
        h.packetIn(1, 3, Frames.arpTruncated(H2));
        String first = LOCAL.format(h.instant());
        h.advance(Duration.ofSeconds(5));
        h.packetIn(2, 4, Frames.dhcpDiscover(H3));
        String moved = LOCAL.format(h.instant());

        assertEquals(String.join("\n",
                "MAC                VLAN  IPV4                             ATTACHED TO                   LAST SEEN          ",
                "02:00:00:00:00:01  7     10.0.7.1                         00:00:00:00:00:00:00:01/2     " + first,
                "02:00:00:00:00:01  -     10.0.0.1,10.0.0.11               00:00:00:00:00:00:00:01/1     " + first,
                "02:00:00:00:00:03  -     -                                00:00:00:00:00:00:00:02/4     " + moved,
                "3 device(s); malformed ARP 1, malformed DHCP 0, moves 1, moves suppressed (flapping) 0, aged out 0"),
                new DeviceCommands(h.dm).devices().replace(System.lineSeparator(), "\n"));
    }
}
