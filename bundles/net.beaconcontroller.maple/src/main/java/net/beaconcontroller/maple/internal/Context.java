package net.beaconcontroller.maple.internal;

import java.util.ArrayDeque;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.topology.SwitchPort;

/**
 * What holds for every packet that reaches a trace tree node: the value of each V node above it and the tests
 * whose true branch it is in (false branches add nothing a match can say; priorities take care of them). Immutable;
 * shares its tail with its parent's.
 */
final class Context {
    static final Context ROOT = new Context(null, null, null);

    private final Context up;
    private final FieldTest condition;
    /** The ingress, once a condition fixed it; rules below then exist only at its switch. */
    private final SwitchPort pin;

    private Context(Context up, FieldTest condition, SwitchPort pin) {
        this.up = up;
        this.condition = condition;
        this.pin = pin;
    }

    Context with(FieldTest t) {
        SwitchPort p = t instanceof FieldTest.Equals e && e.field() == Field.IN_PORT ? (SwitchPort) e.value() : pin;
        return new Context(this, t, p);
    }

    /** The context of {@code parent}'s child in {@code slot}. */
    Context below(Node parent, Object slot) {
        if (parent instanceof Node.Read r) {
            return with(new FieldTest.Equals(r.field, slot));
        }
        return (Boolean) slot ? with(((Node.Branch) parent).test) : this;
    }

    /** The context of node {@code n} of the tree. */
    static Context of(Node n) {
        var path = new ArrayDeque<Node>();
        for (Node a = n; a.parent != null; a = a.parent) {
            path.push(a);
        }
        Context c = ROOT;
        for (Node a : path) {
            c = c.below(a.parent, a.slot);
        }
        return c;
    }

    SwitchPort pin() {
        return pin;
    }

    /** Whether the packets here entered the network at another switch than {@code dpid}. */
    boolean elsewhere(long dpid) {
        return pin != null && pin.dpid() != dpid;
    }

    /** The match for these packets, for a switch they are not {@link #elsewhere} for. */
    OFMatch match() {
        var b = OFMatch.builder();
        applyTo(b);
        return b.build();
    }

    private void applyTo(OFMatch.Builder b) {
        if (up == null) {
            return;
        }
        up.applyTo(b); // root first: a later condition on the same address is the narrower prefix
        if (condition instanceof FieldTest.Prefix p) {
            if (p.field() == Field.NW_SRC) {
                b.nwSrc(p.prefix(), p.length());
            } else {
                b.nwDst(p.prefix(), p.length());
            }
            return;
        }
        var e = (FieldTest.Equals) condition;
        if (e.field() == Field.IN_PORT) {
            b.inPort(((SwitchPort) e.value()).port());
            return;
        }
        long v = (Long) e.value();
        switch (e.field()) {
            case DL_SRC -> b.dlSrc(v);
            case DL_DST -> b.dlDst(v);
            case DL_VLAN -> b.dlVlan((int) v);
            case DL_VLAN_PCP -> b.dlVlanPcp((int) v);
            case DL_TYPE -> b.dlType((int) v);
            case NW_TOS -> b.nwTos((int) v);
            case NW_PROTO -> b.nwProto((int) v);
            case NW_SRC -> b.nwSrc((int) v);
            case NW_DST -> b.nwDst((int) v);
            case TP_SRC -> b.tpSrc((int) v);
            case TP_DST -> b.tpDst((int) v);
            default -> throw new IllegalStateException("unexpected field " + e.field());
        }
    }
}
