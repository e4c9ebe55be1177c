package net.beaconcontroller.web.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.openflow.action.OFActions;

/** Floodlight's action text against the same actions in ovs-ofctl syntax. */
class FloodlightActionsTest {
    @Test
    void everyOpenFlow10ActionReadsAndPrints() {
        var text = "output=2,output=flood,output=controller,output=local,output=in_port,enqueue=3:7,strip_vlan,"
                + "set_vlan_vid=10,set_vlan_pcp=5,set_eth_src=00:00:00:00:00:01,set_eth_dst=aa:bb:cc:dd:ee:ff,"
                + "set_ip_tos=184,set_ipv4_src=10.0.0.1,set_ipv4_dst=192.168.0.9,set_tp_src=1024,set_tp_dst=80";
        var actions = FloodlightActions.parse(text);
        assertEquals(OFActions.parse("output:2,flood,output:CONTROLLER,local,in_port,enqueue:3:7,strip_vlan,"
                + "mod_vlan_vid:10,mod_vlan_pcp:5,mod_dl_src:00:00:00:00:00:01,mod_dl_dst:aa:bb:cc:dd:ee:ff,"
                + "mod_nw_tos:184,mod_nw_src:10.0.0.1,mod_nw_dst:192.168.0.9,mod_tp_src:1024,mod_tp_dst:80"),
                actions);
        assertEquals(text, FloodlightActions.format(actions));
        assertEquals(actions, FloodlightActions.parse(FloodlightActions.format(actions)));
    }

    @Test
    void noActionIsDrop() {
        assertEquals(List.of(), FloodlightActions.parse(""));
        assertEquals(List.of(), FloodlightActions.parse(null));
        assertEquals("", FloodlightActions.format(List.of()));
    }

    @Test
    void unknownActionsAndBadValuesAreRefusedByName() {
        for (var bad : new String[] {"jump=3", "output=0", "output=65281", "output=99999", "output=none",
                "output=", "set_vlan_vid=4096", "set_vlan_pcp=8", "set_ip_tos=3", "set_eth_src=zz",
                "set_ipv4_dst=1.2.3", "set_tp_dst=70000", "enqueue=3", "enqueue=flood:1", "strip_vlan=1",
                "output=2,,output=3"}) {
            var e = assertThrows(FlowFormatException.class, () -> FloodlightActions.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("Warning!"), e.getMessage());
        }
    }
}
