package net.beaconcontroller.firewall.internal;

import static net.beaconcontroller.firewall.internal.Packets.rule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import net.beaconcontroller.firewall.internal.FirewallState.Module;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.util.IPv4Address;

class RuleFileTest {
    @TempDir
    Path dir;

    @Test
    void noFileIsTheInitialState() throws IOException {
        assertEquals(FirewallState.INITIAL, new RuleFile(dir.resolve("none.txt")).read());
        assertTrue(!FirewallState.INITIAL.enabled());
    }

    @Test
    void whatIsWrittenIsReadBack() throws IOException {
        var file = new RuleFile(dir.resolve("sub/firewall.txt"));
        var state = new FirewallState(new Module(true, IPv4Address.parse("255.255.0.0")), List.of(
                new Stored(rule("src-ip", "10.0.0.1", "dst-ip", "10.0.0.2", "nw-proto", "ICMP", "priority", "2"), 5),
                new Stored(rule("dl-type", "ARP", "action", "DENY", "switchid", "00:00:00:00:00:00:00:03"), 7)));
        file.write(state);
        assertEquals(state, file.read());
        assertEquals(1, Files.list(dir.resolve("sub")).count(), "no temporary file left");
    }

    @Test
    void aDamagedLineIsNamed() throws IOException {
        var path = dir.resolve("firewall.txt");
        Files.writeString(path, "# header\nmodule\tenabled=true\tsubnet-mask=255.255.255.0\n"
                + "rule\t12\t1\tsrc-ip=10.0.0.300,priority=0,action=ALLOW\n");
        var e = assertThrows(IOException.class, () -> new RuleFile(path).read());
        assertTrue(e.getMessage().endsWith("line 3: src-ip '10.0.0.300': not an IPv4 address A.B.C.D or prefix"
                + " A.B.C.D/M"), e.getMessage());
        Files.writeString(path, "module\tenabled=maybe\tsubnet-mask=255.255.255.0\n");
        assertTrue(assertThrows(IOException.class, () -> new RuleFile(path).read()).getMessage()
                .contains("line 1: enabled is true or false"));
    }
}
