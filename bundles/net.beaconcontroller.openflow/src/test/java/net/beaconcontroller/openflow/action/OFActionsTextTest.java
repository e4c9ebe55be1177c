package net.beaconcontroller.openflow.action;

import static net.beaconcontroller.openflow.action.ActionFixtures.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import net.beaconcontroller.openflow.OFPort;

/** The ovs-ofctl text form of actions. */
class OFActionsTextTest {
    static Stream<Arguments> printed() {
        return Stream.of(
                Arguments.of(OFActionOutput.to(2), "output:2"),
                Arguments.of(OFActionOutput.to(OFPort.IN_PORT), "in_port"),
                Arguments.of(OFActionOutput.to(OFPort.FLOOD), "flood"),
                Arguments.of(OFActionOutput.to(OFPort.ALL), "all"),
                Arguments.of(OFActionOutput.to(OFPort.LOCAL), "local"),
                Arguments.of(OFActionOutput.to(OFPort.NORMAL), "normal"),
                Arguments.of(OFActionOutput.to(OFPort.TABLE), "output:TABLE"),
                Arguments.of(OFActionOutput.to(OFPort.NONE), "output:NONE"),
                Arguments.of(OFActionOutput.toController(128), "controller:128"),
                Arguments.of(OFActionOutput.toController(0), "controller:0"),
                Arguments.of(new OFActionOutput(5, 64), "output(port=5,max_len=64)"),
                Arguments.of(new OFActionOutput(OFPort.FLOOD, 1), "output(port=FLOOD,max_len=1)"),
                Arguments.of(new OFActionEnqueue(1, 4294967295L), "enqueue:1:4294967295"),
                Arguments.of(new OFActionEnqueue(OFPort.IN_PORT, 0), "enqueue:IN_PORT:0"),
                Arguments.of(new OFActionSetVlanVid(10), "mod_vlan_vid:10"),
                Arguments.of(new OFActionSetVlanPcp(7), "mod_vlan_pcp:7"),
                Arguments.of(new OFActionStripVlan(), "strip_vlan"),
                Arguments.of(new OFActionSetDlSrc(0xfedcba987654L), "mod_dl_src:fe:dc:ba:98:76:54"),
                Arguments.of(new OFActionSetDlDst(1), "mod_dl_dst:00:00:00:00:00:01"),
                Arguments.of(new OFActionSetNwSrc(0xc0a80001), "mod_nw_src:192.168.0.1"),
                Arguments.of(new OFActionSetNwDst(0xffffffff), "mod_nw_dst:255.255.255.255"),
                Arguments.of(new OFActionSetNwTos(0xb8), "mod_nw_tos:184"),
                Arguments.of(new OFActionSetTpSrc(65535), "mod_tp_src:65535"),
                Arguments.of(new OFActionSetTpDst(80), "mod_tp_dst:80"),
                Arguments.of(new OFActionVendor(0x2320, new byte[0]), "vendor:0x00002320"),
                Arguments.of(new OFActionVendor(0xff5c16c7, hex("0012000000000000")),
                        "vendor:0xff5c16c7:0012000000000000"));
    }

    @ParameterizedTest
    @MethodSource("printed")
    void printsAndParsesEveryAction(OFAction action, String text) {
        assertEquals(text, action.toString());
        assertEquals(List.of(action), OFActions.parse(text));
    }

    @Test
    void listsAreCommaSeparatedAndEmptyIsDrop() {
        List<OFAction> list = List.of(OFActionOutput.to(2), new OFActionSetVlanVid(10), new OFActionOutput(5, 64));
        assertEquals("output:2,mod_vlan_vid:10,output(port=5,max_len=64)", OFActions.toString(list));
        assertEquals(list, OFActions.parse(OFActions.toString(list)));
        assertEquals("drop", OFActions.toString(List.of()));
        assertEquals(List.of(), OFActions.parse("drop"));
        assertEquals(List.of(), OFActions.parse(""));
        assertEquals(List.of(), OFActions.parse(" DROP "));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "3                          | output:3",
        "output:controller          | controller:65535",
        "output:0xfffd              | controller:65535",
        "controller                 | controller:65535",
        "CONTROLLER:128             | controller:128",
        "output:in_port             | in_port",
        "OUTPUT:Flood               | flood",
        "output(port=controller,max_len=5) | controller:5",
        "output( port = 3 )         | output:3",
        "enqueue:local:0x10         | enqueue:LOCAL:16",
        "mod_vlan_vid:0xfff         | mod_vlan_vid:4095",
        "mod_dl_src:00-1A-2B-3C-4D-5E | mod_dl_src:00:1a:2b:3c:4d:5e",
        "mod_nw_tos:0x10            | mod_nw_tos:16",
        "vendor:8992:00000000000000FF | vendor:0x00002320:00000000000000ff",
        " output:1 ,  strip_vlan    | output:1,strip_vlan",
    })
    void acceptsOvsOfctlVariants(String text, String printed) {
        List<OFAction> actions = OFActions.parse(text);
        assertEquals(printed, OFActions.toString(actions));
        assertEquals(actions, OFActions.parse(printed));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bogus                           | bogus",
        "output:1,,output:2              | ''",
        "output:1,                       | ''",
        "drop,output:1                   | drop",
        "output:                         | output:",
        "output                          | output",
        "output:70000                    | output:70000",
        "output:eth0                     | output:eth0",
        "70000                           | 70000",
        "flood:3                         | flood:3",
        "strip_vlan:1                    | strip_vlan:1",
        "controller:65536                | controller:65536",
        "enqueue:1                       | enqueue:1",
        "enqueue:1:4294967296            | enqueue:1:4294967296",
        "mod_vlan_vid:4096               | mod_vlan_vid:4096",
        "mod_vlan_pcp:8                  | mod_vlan_pcp:8",
        "mod_dl_src:zz:00:00:00:00:00    | mod_dl_src:zz:00:00:00:00:00",
        "mod_nw_dst:1.2.3                | mod_nw_dst:1.2.3",
        "mod_nw_tos:3                    | mod_nw_tos:3",
        "mod_tp_src:-1                   | mod_tp_src:-1",
        "mod_tp_dst:65536                | mod_tp_dst:65536",
        "vendor:0x2320:123               | vendor:0x2320:123",
        "vendor:0x2320:00                | vendor:0x2320:00",
        "vendor:0x100000000              | vendor:0x100000000",
        "output(port=1,foo=2)            | output(port=1,foo=2)",
        "output(max_len=3)               | output(max_len=3)",
        "output(port=1                   | output(port=1",
        "flood(1)                        | flood(1)",
    })
    void rejectsBadActionsNamingThem(String text, String item) {
        var e = assertThrows(IllegalArgumentException.class, () -> OFActions.parse(text));
        assertTrue(e.getMessage().startsWith("bad action '" + item + "'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"output:\u0661", "mod_tp_src:\u0661"})
    void nonAsciiDigitsAreNotNumbers(String text) {
        assertThrows(IllegalArgumentException.class, () -> OFActions.parse(text));
    }
}
