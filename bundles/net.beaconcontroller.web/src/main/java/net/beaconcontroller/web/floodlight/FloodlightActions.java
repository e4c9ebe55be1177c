package net.beaconcontroller.web.floodlight;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActionEnqueue;
import net.beaconcontroller.openflow.action.OFActionOutput;
import net.beaconcontroller.openflow.action.OFActionSetDlDst;
import net.beaconcontroller.openflow.action.OFActionSetDlSrc;
import net.beaconcontroller.openflow.action.OFActionSetNwDst;
import net.beaconcontroller.openflow.action.OFActionSetNwSrc;
import net.beaconcontroller.openflow.action.OFActionSetNwTos;
import net.beaconcontroller.openflow.action.OFActionSetTpDst;
import net.beaconcontroller.openflow.action.OFActionSetTpSrc;
import net.beaconcontroller.openflow.action.OFActionSetVlanPcp;
import net.beaconcontroller.openflow.action.OFActionSetVlanVid;
import net.beaconcontroller.openflow.action.OFActionStripVlan;
import net.beaconcontroller.openflow.action.OFActionVendor;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/**
 * OpenFlow 1.0 action lists as Floodlight's text: comma-separated {@code output=2}, {@code output=flood},
 * {@code enqueue=2:1}, {@code strip_vlan}, {@code set_vlan_vid=10}, {@code set_vlan_pcp=3},
 * {@code set_eth_src=MAC}, {@code set_eth_dst=MAC}, {@code set_ip_tos=TOS}, {@code set_ipv4_src=IP},
 * {@code set_ipv4_dst=IP}, {@code set_tp_src=N}, {@code set_tp_dst=N}. No action drops.
 */
public final class FloodlightActions {
    private FloodlightActions() {
    }

    public static String format(List<OFAction> actions) {
        var parts = new ArrayList<String>();
        for (var a : actions) {
            parts.add(text(a));
        }
        return String.join(",", parts);
    }

    private static String text(OFAction a) {
        if (a instanceof OFActionOutput o) {
            return "output=" + FloodlightMatch.port(o.port());
        } else if (a instanceof OFActionEnqueue q) {
            return "enqueue=" + FloodlightMatch.port(q.port()) + ":" + q.queueId();
        } else if (a instanceof OFActionStripVlan) {
            return "strip_vlan";
        } else if (a instanceof OFActionSetVlanVid v) {
            return "set_vlan_vid=" + v.vlanVid();
        } else if (a instanceof OFActionSetVlanPcp p) {
            return "set_vlan_pcp=" + p.vlanPcp();
        } else if (a instanceof OFActionSetDlSrc s) {
            return "set_eth_src=" + MacAddress.toString(s.mac());
        } else if (a instanceof OFActionSetDlDst d) {
            return "set_eth_dst=" + MacAddress.toString(d.mac());
        } else if (a instanceof OFActionSetNwTos t) {
            return "set_ip_tos=" + t.tos();
        } else if (a instanceof OFActionSetNwSrc s) {
            return "set_ipv4_src=" + IPv4Address.toString(s.ip());
        } else if (a instanceof OFActionSetNwDst d) {
            return "set_ipv4_dst=" + IPv4Address.toString(d.ip());
        } else if (a instanceof OFActionSetTpSrc s) {
            return "set_tp_src=" + s.port();
        } else if (a instanceof OFActionSetTpDst d) {
            return "set_tp_dst=" + d.port();
        }
        // Floodlight names vendor actions by their OpenFlow 1.1+ name.
        return "experimenter=" + Integer.toUnsignedString(((OFActionVendor) a).vendor());
    }

    /** @throws FlowFormatException naming the action that is unknown or whose value is wrong */
    public static List<OFAction> parse(String text) {
        var actions = new ArrayList<OFAction>();
        if (text == null || text.isBlank()) {
            return actions;
        }
        // -1: trailing empty items ("output=1,,") are refused, not dropped.
        for (var raw : text.split(",", -1)) {
            var item = raw.trim();
            if (item.isEmpty()) {
                throw new FlowFormatException("Warning! An empty action in \"actions\": '" + text + "'.");
            }
            int eq = item.indexOf('=');
            var name = (eq < 0 ? item : item.substring(0, eq)).trim().toLowerCase();
            var value = eq < 0 ? "" : item.substring(eq + 1).trim();
            try {
                actions.add(action(name, value));
            } catch (FlowFormatException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new FlowFormatException("Warning! Bad action '" + item + "': " + e.getMessage());
            }
        }
        return actions;
    }

    private static OFAction action(String name, String value) {
        return switch (name) {
            case "output" -> {
                int port = outPort(value, "output");
                // Only a packet to the controller carries a length: all of it, as ovs-ofctl's output:CONTROLLER.
                yield new OFActionOutput(port, port == OFPort.CONTROLLER ? 0xffff : 0);
            }
            case "enqueue" -> {
                int colon = value.indexOf(':');
                if (colon < 0) {
                    throw new FlowFormatException("Warning! enqueue takes PORT:QUEUE, not '" + value + "'.");
                }
                long queue = FloodlightMatch.number(value.substring(colon + 1), "the queue of enqueue", 0,
                        Integer.MAX_VALUE);
                yield new OFActionEnqueue(physical(value.substring(0, colon), "enqueue"), queue);
            }
            case "strip_vlan" -> {
                if (!value.isEmpty()) {
                    throw new FlowFormatException("Warning! strip_vlan takes no value.");
                }
                yield new OFActionStripVlan();
            }
            case "set_vlan_vid" -> new OFActionSetVlanVid(FloodlightMatch.number(value, name, 0, 4095));
            case "set_vlan_pcp" -> new OFActionSetVlanPcp(FloodlightMatch.number(value, name, 0, 7));
            case "set_eth_src" -> new OFActionSetDlSrc(MacAddress.parse(value));
            case "set_eth_dst" -> new OFActionSetDlDst(MacAddress.parse(value));
            case "set_ip_tos" -> new OFActionSetNwTos(FloodlightMatch.number(value, name, 0, 0xfc));
            case "set_ipv4_src" -> new OFActionSetNwSrc(IPv4Address.parse(value));
            case "set_ipv4_dst" -> new OFActionSetNwDst(IPv4Address.parse(value));
            case "set_tp_src" -> new OFActionSetTpSrc(FloodlightMatch.number(value, name, 0, 0xffff));
            case "set_tp_dst" -> new OFActionSetTpDst(FloodlightMatch.number(value, name, 0, 0xffff));
            default -> throw new FlowFormatException("Warning! Unknown action '" + name + "': OpenFlow 1.0 has"
                    + " output, enqueue, strip_vlan, set_vlan_vid, set_vlan_pcp, set_eth_src, set_eth_dst,"
                    + " set_ip_tos, set_ipv4_src, set_ipv4_dst, set_tp_src, set_tp_dst.");
        };
    }

    /** A port to send to: a physical port or one of the reserved ports a packet can go out of. */
    private static int outPort(String text, String action) {
        int port;
        try {
            port = OFPort.parse(text);
        } catch (IllegalArgumentException e) {
            throw badPort(text, action);
        }
        if (!OFPort.isPhysical(port) && port != OFPort.IN_PORT && port != OFPort.TABLE && port != OFPort.NORMAL
                && port != OFPort.FLOOD && port != OFPort.ALL && port != OFPort.CONTROLLER && port != OFPort.LOCAL) {
            throw badPort(text, action);
        }
        return port;
    }

    private static int physical(String text, String action) {
        int port = outPort(text.trim(), action);
        if (!OFPort.isPhysical(port) && port != OFPort.IN_PORT && port != OFPort.LOCAL) {
            throw badPort(text, action);
        }
        return port;
    }

    private static FlowFormatException badPort(String text, String action) {
        return new FlowFormatException("Warning! " + action + " needs a port 1.." + OFPort.MAX + " or one of flood,"
                + " all, controller, local, in_port, normal, table, not '" + text + "'.");
    }
}
