package net.beaconcontroller.openflow;

import static net.beaconcontroller.openflow.OFMatchFixtures.hex;
import static net.beaconcontroller.openflow.OFMatchFixtures.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The ovs-ofctl text form of matches. */
class OFMatchTextTest {
    static final String TCP_TEXT = "in_port=3,dl_src=fe:dc:ba:98:76:54,dl_dst=66:77:88:99:aa:bb,dl_vlan=4094,"
            + "dl_type=0x0800,nw_tos=184,nw_proto=6,nw_src=192.168.1.0/24,nw_dst=10.0.0.1,tp_src=50000,tp_dst=443";

    @Test
    void printsTheFieldsThatAreNotWildcardedInMatchOrder() throws Exception {
        assertEquals(TCP_TEXT, read(hex(OFMatchTest.TCP_VECTOR)).toString());
        assertEquals("in_port=LOCAL,dl_src=00:00:00:00:00:01,dl_dst=ff:ff:ff:ff:ff:ff,dl_vlan=0xffff,dl_vlan_pcp=0,"
                + "dl_type=0x0806,nw_proto=1,nw_src=10.0.0.1,nw_dst=10.0.0.2", read(hex(OFMatchTest.ARP_VECTOR))
                        .toString());
        assertEquals("*", OFMatch.ALL.toString());
    }

    @Test
    void parsesWhatItPrints() throws Exception {
        OFMatch tcp = read(hex(OFMatchTest.TCP_VECTOR));
        assertEquals(tcp, OFMatch.parse(TCP_TEXT));
        OFMatchFixtures.assertSameFields(tcp, OFMatch.parse(TCP_TEXT));
        OFMatch arp = read(hex(OFMatchTest.ARP_VECTOR));
        OFMatchFixtures.assertSameFields(arp, OFMatch.parse(arp.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "", "  ", " * "})
    void starOrNothingIsAll(String text) {
        assertSame(OFMatch.ALL, OFMatch.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ip                      | dl_type=0x0800",
        "arp                     | dl_type=0x0806",
        "rarp                    | dl_type=0x8035",
        "icmp                    | dl_type=0x0800,nw_proto=1",
        "tcp                     | dl_type=0x0800,nw_proto=6",
        "udp                     | dl_type=0x0800,nw_proto=17",
        "sctp                    | dl_type=0x0800,nw_proto=132",
        "tcp,tp_dst=80           | dl_type=0x0800,nw_proto=6,tp_dst=80",
        "arp,arp_op=2            | dl_type=0x0806,nw_proto=2",
        "icmp,icmp_type=8,icmp_code=0 | dl_type=0x0800,nw_proto=1,tp_src=8,tp_dst=0",
        "in_port=local           | in_port=LOCAL",
        "in_port=0xfffd          | in_port=CONTROLLER",
        "dl_type=2048            | dl_type=0x0800",
        "dl_vlan=65535           | dl_vlan=0xffff",
        "dl_vlan=0x00a           | dl_vlan=10",
        "dl_src=00-1A-2b-3C-4d-5E | dl_src=00:1a:2b:3c:4d:5e",
        "nw_src=10.1.2.3/8       | nw_src=10.0.0.0/8",
        "nw_src=10.1.2.3/255.255.0.0 | nw_src=10.1.0.0/16",
        "nw_dst=10.1.2.3/32      | nw_dst=10.1.2.3",
        "nw_dst=10.1.2.3/0       | *",
        "nw_dst=1.2.3.4/0.0.0.0  | *",
        " in_port = 1 , tcp      | in_port=1,dl_type=0x0800,nw_proto=6",
    })
    void parsesShorthandsAliasesAndNumberForms(String text, String printed) {
        OFMatch m = OFMatch.parse(text);
        assertEquals(printed, m.toString());
        assertEquals(m, OFMatch.parse(printed));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "foo=1                    | foo=1",
        "bogus                    | bogus",
        "in_port=1,,tcp           | ''",
        "in_port=                 | in_port=",
        "in_port=65536            | in_port=65536",
        "in_port=-1               | in_port=-1",
        "dl_src=00:11:22:33:44    | dl_src=00:11:22:33:44",
        "dl_vlan=4096             | dl_vlan=4096",
        "dl_vlan=0xfffe           | dl_vlan=0xfffe",
        "dl_vlan_pcp=8            | dl_vlan_pcp=8",
        "dl_type=0x10000          | dl_type=0x10000",
        "dl_type=0x               | dl_type=0x",
        "nw_tos=1                 | nw_tos=1",
        "nw_tos=256               | nw_tos=256",
        "nw_proto=+6              | nw_proto=+6",
        "nw_src=10.0.0.0/33       | nw_src=10.0.0.0/33",
        "nw_src=10.0.0.256        | nw_src=10.0.0.256",
        "nw_dst=10.0.0.0/255.0.255.0 | nw_dst=10.0.0.0/255.0.255.0",
        "tp_src=65536             | tp_src=65536",
        "tp_dst=80x               | tp_dst=80x",
        "in_port=1,in_port=2      | in_port=2",
        "tcp,dl_type=0x0800       | dl_type=0x0800",
        "tcp,udp                  | udp",
        "icmp,tp_src=1,icmp_type=2 | icmp_type=2",
    })
    void rejectsBadItemsNamingThem(String text, String item) {
        var e = assertThrows(IllegalArgumentException.class, () -> OFMatch.parse(text));
        assertTrue(e.getMessage().startsWith("bad match item '" + item + "'"), e.getMessage());
    }

    @Test
    void nonAsciiDigitsAreNotNumbers() {
        assertThrows(IllegalArgumentException.class, () -> OFMatch.parse("tp_src=\u0661\u0662"));
    }
}
