package net.beaconcontroller.openflow.action;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import net.beaconcontroller.openflow.OFParseException;
import net.beaconcontroller.openflow.OFPort;
import net.beaconcontroller.util.IPv4Address;
import net.beaconcontroller.util.MacAddress;

/** Action lists: the wire form (as in FLOW_MOD and PACKET_OUT) and the ovs-ofctl text form. */
public final class OFActions {
    private OFActions() {
    }

    /**
     * Reads the {@code totalLength} bytes of actions at the buffer's position and moves the position past them.
     * Allocation is bounded by {@code totalLength}.
     *
     * @return the actions, immutable
     * @throws OFParseException when {@code totalLength} is negative or beyond the buffer's limit, or an action in it
     *                          is malformed (see {@link OFAction#readFrom}), including one that runs past the list
     */
    public static List<OFAction> readList(ByteBuffer buf, int totalLength) throws OFParseException {
        if (totalLength < 0 || totalLength > buf.remaining()) {
            throw new OFParseException("action list of " + totalLength + " bytes at offset " + buf.position()
                    + " does not fit the " + buf.remaining() + " bytes left");
        }
        if (totalLength == 0) {
            return List.of();
        }
        int start = buf.position();
        int end = start + totalLength;
        var actions = new ArrayList<OFAction>(Math.min(totalLength / 8, 8));
        try {
            while (buf.position() < end) {
                actions.add(read(buf, end));
            }
        } catch (OFParseException e) {
            buf.position(start);
            throw e;
        }
        return List.copyOf(actions);
    }

    /**
     * Writes the actions in order at the buffer's position and moves the position past them.
     *
     * @throws BufferOverflowException when they do not fit (nothing is written then)
     */
    public static void writeList(ByteBuffer buf, List<OFAction> actions) {
        if (buf.remaining() < totalLength(actions)) {
            throw new BufferOverflowException();
        }
        for (OFAction a : actions) {
            a.writeTo(buf);
        }
    }

    /** Bytes the actions take on the wire. */
    public static int totalLength(List<OFAction> actions) {
        int n = 0;
        for (OFAction a : actions) {
            n += a.length();
        }
        return n;
    }

    /**
     * The ovs-ofctl form, e.g. {@code output:2,mod_vlan_vid:10}; {@code drop} for an empty list. See each action's
     * {@code toString} for its form; {@link #parse} reads them all back.
     */
    public static String toString(List<OFAction> actions) {
        if (actions.isEmpty()) {
            return "drop";
        }
        var sb = new StringBuilder(16 * actions.size());
        for (OFAction a : actions) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(a);
        }
        return sb.toString();
    }

    /**
     * Parses a comma-separated ovs-ofctl action list: {@code output:PORT} (a number or a reserved port name; to
     * {@code CONTROLLER} it sends the whole packet), a bare port number, {@code output(port=PORT,max_len=N)},
     * {@code in_port}, {@code flood}, {@code all}, {@code local}, {@code normal}, {@code controller} or
     * {@code controller:MAXLEN}, {@code enqueue:PORT:QUEUE}, {@code mod_vlan_vid:N}, {@code mod_vlan_pcp:N},
     * {@code strip_vlan}, {@code mod_dl_src:MAC}, {@code mod_dl_dst:MAC}, {@code mod_nw_src:IP},
     * {@code mod_nw_dst:IP}, {@code mod_nw_tos:N}, {@code mod_tp_src:N}, {@code mod_tp_dst:N},
     * {@code vendor:ID[:HEX]}. Names are case-insensitive, numbers decimal or {@code 0x} hexadecimal. {@code drop}
     * alone, or an empty string, is the empty list.
     *
     * @throws IllegalArgumentException naming the offending action
     */
    public static List<OFAction> parse(String ofctl) {
        List<String> items = split(ofctl);
        if (items.size() == 1 && items.get(0).isEmpty()) {
            return List.of();
        }
        if (items.size() == 1 && items.get(0).equalsIgnoreCase("drop")) {
            return List.of();
        }
        var actions = new ArrayList<OFAction>(items.size());
        for (String item : items) {
            try {
                actions.add(parseOne(item));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad action '" + item + "' in '" + ofctl + "': " + e.getMessage(),
                        e);
            }
        }
        return List.copyOf(actions);
    }

    /** Reads one action at the position, which must not run past {@code end}; the position is kept on error. */
    static OFAction read(ByteBuffer buf, int end) throws OFParseException {
        int p = buf.position();
        int left = end - p;
        if (left < 8) {
            throw new OFParseException("action at offset " + p + " is truncated: " + Math.max(left, 0)
                    + " bytes left, an action has at least 8");
        }
        int type = buf.getShort(p) & 0xffff;
        int len = buf.getShort(p + 2) & 0xffff;
        if (len < 8 || len % 8 != 0) {
            throw new OFParseException("action at offset " + p + " has length " + len
                    + ", which is not a multiple of 8 of at least 8");
        }
        if (len > left) {
            throw new OFParseException("action at offset " + p + " has length " + len + " but only " + left
                    + " bytes are left in the list");
        }
        int expected = switch (type) {
            case OFActionOutput.TYPE, OFActionSetVlanVid.TYPE, OFActionSetVlanPcp.TYPE, OFActionStripVlan.TYPE,
                    OFActionSetNwSrc.TYPE, OFActionSetNwDst.TYPE, OFActionSetNwTos.TYPE, OFActionSetTpSrc.TYPE,
                    OFActionSetTpDst.TYPE -> 8;
            case OFActionSetDlSrc.TYPE, OFActionSetDlDst.TYPE, OFActionEnqueue.TYPE -> 16;
            case OFActionVendor.TYPE -> len;
            default -> throw new OFParseException("unknown action type " + type + " at offset " + p);
        };
        if (len != expected) {
            throw new OFParseException("action type " + type + " at offset " + p + " has length " + len + ", not "
                    + expected);
        }
        OFAction action;
        try {
            action = switch (type) {
                case OFActionOutput.TYPE -> new OFActionOutput(u16(buf, p + 4), u16(buf, p + 6));
                case OFActionSetVlanVid.TYPE -> new OFActionSetVlanVid(u16(buf, p + 4));
                case OFActionSetVlanPcp.TYPE -> new OFActionSetVlanPcp(buf.get(p + 4) & 0xff);
                case OFActionStripVlan.TYPE -> new OFActionStripVlan();
                case OFActionSetDlSrc.TYPE -> new OFActionSetDlSrc(MacAddress.read(buf, p + 4));
                case OFActionSetDlDst.TYPE -> new OFActionSetDlDst(MacAddress.read(buf, p + 4));
                case OFActionSetNwSrc.TYPE -> new OFActionSetNwSrc(buf.getInt(p + 4));
                case OFActionSetNwDst.TYPE -> new OFActionSetNwDst(buf.getInt(p + 4));
                case OFActionSetNwTos.TYPE -> new OFActionSetNwTos(buf.get(p + 4) & 0xff);
                case OFActionSetTpSrc.TYPE -> new OFActionSetTpSrc(u16(buf, p + 4));
                case OFActionSetTpDst.TYPE -> new OFActionSetTpDst(u16(buf, p + 4));
                case OFActionEnqueue.TYPE -> new OFActionEnqueue(u16(buf, p + 4), buf.getInt(p + 12) & 0xffff_ffffL);
                default -> { // OFActionVendor.TYPE, the only type the length check let through besides the above
                    var body = new byte[len - OFActionVendor.HEADER_LENGTH];
                    buf.get(p + OFActionVendor.HEADER_LENGTH, body);
                    yield new OFActionVendor(buf.getInt(p + 4), body);
                }
            };
        } catch (IllegalArgumentException e) {
            throw new OFParseException("action type " + type + " at offset " + p + ": " + e.getMessage());
        }
        buf.position(p + len);
        return action;
    }

    private static int u16(ByteBuffer b, int index) {
        return b.getShort(index) & 0xffff;
    }

    /** Splits at the commas that are not inside parentheses, trimming each item. */
    private static List<String> split(String text) {
        var items = new ArrayList<String>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(text.substring(start, i).strip());
                start = i + 1;
            }
        }
        items.add(text.substring(start).strip());
        return items;
    }

    private static OFAction parseOne(String item) {
        if (item.isEmpty()) {
            throw new IllegalArgumentException("empty action");
        }
        if (Character.isDigit(item.charAt(0))) {
            return OFActionOutput.to(OFPort.parse(item));
        }
        int colon = item.indexOf(':');
        int paren = item.indexOf('(');
        if (paren >= 0 && (colon < 0 || paren < colon)) {
            return parseParenthesized(item, paren);
        }
        String name = (colon < 0 ? item : item.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        String arg = colon < 0 ? null : item.substring(colon + 1).strip();
        return switch (name) {
            case "output" -> {
                int port = OFPort.parse(required(arg, name));
                yield new OFActionOutput(port, port == OFPort.CONTROLLER ? 0xffff : 0);
            }
            case "in_port" -> OFActionOutput.to(noArgument(arg, name, OFPort.IN_PORT));
            case "flood" -> OFActionOutput.to(noArgument(arg, name, OFPort.FLOOD));
            case "all" -> OFActionOutput.to(noArgument(arg, name, OFPort.ALL));
            case "local" -> OFActionOutput.to(noArgument(arg, name, OFPort.LOCAL));
            case "normal" -> OFActionOutput.to(noArgument(arg, name, OFPort.NORMAL));
            case "controller" -> OFActionOutput.toController(arg == null ? 0xffff : (int) ActionValues.number(arg,
                    0xffff));
            case "enqueue" -> {
                String a = required(arg, name);
                int sep = a.indexOf(':');
                if (sep < 0) {
                    throw new IllegalArgumentException("enqueue needs PORT:QUEUE");
                }
                yield new OFActionEnqueue(OFPort.parse(a.substring(0, sep).strip()),
                        ActionValues.number(a.substring(sep + 1).strip(), 0xffff_ffffL));
            }
            case "mod_vlan_vid" -> new OFActionSetVlanVid((int) ActionValues.number(required(arg, name), 0xffff));
            case "mod_vlan_pcp" -> new OFActionSetVlanPcp((int) ActionValues.number(required(arg, name), 0xff));
            case "strip_vlan" -> {
                noArgument(arg, name, 0);
                yield new OFActionStripVlan();
            }
            case "mod_dl_src" -> new OFActionSetDlSrc(MacAddress.parse(required(arg, name)));
            case "mod_dl_dst" -> new OFActionSetDlDst(MacAddress.parse(required(arg, name)));
            case "mod_nw_src" -> new OFActionSetNwSrc(IPv4Address.parse(required(arg, name)));
            case "mod_nw_dst" -> new OFActionSetNwDst(IPv4Address.parse(required(arg, name)));
            case "mod_nw_tos" -> new OFActionSetNwTos((int) ActionValues.number(required(arg, name), 0xff));
            case "mod_tp_src" -> new OFActionSetTpSrc((int) ActionValues.number(required(arg, name), 0xffff));
            case "mod_tp_dst" -> new OFActionSetTpDst((int) ActionValues.number(required(arg, name), 0xffff));
            case "vendor" -> parseVendor(required(arg, name));
            case "drop" -> throw new IllegalArgumentException("drop must be the only action");
            default -> throw new IllegalArgumentException("unknown action '" + name + "'");
        };
    }

    /** {@code output(port=PORT,max_len=N)}, the form for an output with a max_len to a port other than CONTROLLER. */
    private static OFAction parseParenthesized(String item, int paren) {
        String name = item.substring(0, paren).strip().toLowerCase(Locale.ROOT);
        if (!name.equals("output") || !item.endsWith(")")) {
            throw new IllegalArgumentException("unknown action '" + item + "'");
        }
        int port = -1;
        int maxLen = 0;
        for (String kv : item.substring(paren + 1, item.length() - 1).split(",", -1)) {
            int eq = kv.indexOf('=');
            String key = eq < 0 ? kv.strip() : kv.substring(0, eq).strip();
            String value = eq < 0 ? "" : kv.substring(eq + 1).strip();
            switch (key) {
                case "port" -> port = OFPort.parse(value);
                case "max_len" -> maxLen = (int) ActionValues.number(value, 0xffff);
                default -> throw new IllegalArgumentException("unknown output argument '" + kv.strip() + "'");
            }
        }
        if (port < 0) {
            throw new IllegalArgumentException("output(...) needs port=PORT");
        }
        return new OFActionOutput(port, maxLen);
    }

    private static OFAction parseVendor(String arg) {
        int sep = arg.indexOf(':');
        long vendor = ActionValues.number(sep < 0 ? arg : arg.substring(0, sep), 0xffff_ffffL);
        byte[] body = new byte[0];
        if (sep >= 0) {
            try {
                body = HexFormat.of().parseHex(arg.substring(sep + 1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("vendor body must be hex digits, two per byte");
            }
        }
        return new OFActionVendor((int) vendor, body);
    }

    private static String required(String arg, String name) {
        if (arg == null || arg.isEmpty()) {
            throw new IllegalArgumentException(name + " needs an argument after ':'");
        }
        return arg;
    }

    private static int noArgument(String arg, String name, int value) {
        if (arg != null) {
            throw new IllegalArgumentException(name + " takes no argument");
        }
        return value;
    }
}
