package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.cluster.internal.MemberReport.SwitchReport;
import net.beaconcontroller.openflow.vendor.NiciraRole;

class MemberReportTest {
    private final MemberReport report = new MemberReport("7f3c-member", 0.25, List.of(
            new SwitchReport(0x0102030405060708L, NiciraRole.MASTER, 1200),
            new SwitchReport(2, NiciraRole.SLAVE, 0), new SwitchReport(3, NiciraRole.OTHER, 5)));

    @Test
    void aReportSurvivesTheRoundTrip() {
        assertEquals(report, MemberReport.decode(report.encode()));
        assertEquals(1200, report.masteredRate());
        assertEquals(NiciraRole.SLAVE, report.find(2).role());
        assertEquals(null, report.find(4));
    }

    @Test
    void theRoleTagsAreStable() {
        var bytes = report.encode();
        // version, then the member id (2-byte length + UTF-8), cpu, count; then per switch dpid + tag + rate
        int first = 1 + 2 + "7f3c-member".length() + 8 + 4;
        assertEquals(1, bytes[0]);
        assertEquals(1, bytes[first + 8], "MASTER is tag 1");
        assertEquals(2, bytes[first + 17 + 8], "SLAVE is tag 2");
        assertEquals(0, bytes[first + 34 + 8], "OTHER is tag 0");
    }

    @Test
    void anotherVersionTruncationAndGarbageAreRefused() {
        var bytes = report.encode();
        var other = bytes.clone();
        other[0] = 2;
        var e = assertThrows(IllegalArgumentException.class, () -> MemberReport.decode(other));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        for (int n = 0; n < bytes.length; n++) {
            int cut = n;
            assertThrows(IllegalArgumentException.class, () -> MemberReport.decode(Arrays.copyOf(bytes, cut)));
        }
        var badTag = bytes.clone();
        badTag[1 + 2 + "7f3c-member".length() + 12 + 8] = 9;
        assertThrows(IllegalArgumentException.class, () -> MemberReport.decode(badTag));
        var huge = bytes.clone();
        huge[1 + 2 + "7f3c-member".length() + 8] = 0x7f; // a switch count far beyond the bytes
        assertThrows(IllegalArgumentException.class, () -> MemberReport.decode(huge));
        var longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(IllegalArgumentException.class, () -> MemberReport.decode(longer));
    }
}
