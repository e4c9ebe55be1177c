package net.beaconcontroller.maple.internal;

import java.util.ArrayList;
import java.util.List;

import net.beaconcontroller.maple.Packet;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The {@link Packet} a policy gets: answers from a {@link Header} and records each read and test that is not
 * already decided, after reading the fields it depends on (OpenFlow 1.0's prerequisites). A field that does not
 * apply to the packet reads 0 and is not recorded: every packet with the same prerequisites has it 0 too.
 * Single-threaded: one per policy call.
 */
final class TracedPacket implements Packet {
    private final Header header;
    private final Knowledge known = new Knowledge();
    private final List<Event> events = new ArrayList<>();

    TracedPacket(Header header) {
        this.header = header;
    }

    List<Event> events() {
        return events;
    }

    private Object read(Field f) {
        Object value = header.value(f);
        if (prerequisitesHold(f) && !known.isExact(f)) {
            events.add(new Event.Read(f, value));
            known.learnValue(f, value);
        }
        return value;
    }

    private long bits(Field f) {
        return (Long) read(f);
    }

    private boolean prerequisitesHold(Field f) {
        for (Field pre : f.prerequisites()) {
            read(pre);
        }
        return header.applies(f);
    }

    private boolean test(FieldTest t) {
        boolean outcome = t.holds(header);
        if (prerequisitesHold(t.field()) && known.implied(t) == null) {
            events.add(new Event.Check(t, outcome));
            known.learn(t, outcome);
        }
        return outcome;
    }

    private boolean is(Field f, long bits) {
        return test(new FieldTest.Equals(f, Long.valueOf(bits)));
    }

    @Override
    public SwitchPort inPort() {
        return (SwitchPort) read(Field.IN_PORT);
    }

    @Override
    public long dlSrc() {
        return bits(Field.DL_SRC);
    }

    @Override
    public long dlDst() {
        return bits(Field.DL_DST);
    }

    @Override
    public int dlVlan() {
        return (int) bits(Field.DL_VLAN);
    }

    @Override
    public int dlVlanPcp() {
        return (int) bits(Field.DL_VLAN_PCP);
    }

    @Override
    public int dlType() {
        return (int) bits(Field.DL_TYPE);
    }

    @Override
    public int nwTos() {
        return (int) bits(Field.NW_TOS);
    }

    @Override
    public int nwProto() {
        return (int) bits(Field.NW_PROTO);
    }

    @Override
    public int nwSrc() {
        return (int) bits(Field.NW_SRC);
    }

    @Override
    public int nwDst() {
        return (int) bits(Field.NW_DST);
    }

    @Override
    public int tpSrc() {
        return (int) bits(Field.TP_SRC);
    }

    @Override
    public int tpDst() {
        return (int) bits(Field.TP_DST);
    }

    @Override
    public boolean inPortIs(SwitchPort ingress) {
        return test(new FieldTest.Equals(Field.IN_PORT, ingress));
    }

    @Override
    public boolean dlSrcIs(long mac) {
        return is(Field.DL_SRC, mac);
    }

    @Override
    public boolean dlDstIs(long mac) {
        return is(Field.DL_DST, mac);
    }

    @Override
    public boolean dlVlanIs(int vlan) {
        return is(Field.DL_VLAN, vlan);
    }

    @Override
    public boolean dlTypeIs(int type) {
        return is(Field.DL_TYPE, type);
    }

    @Override
    public boolean nwProtoIs(int proto) {
        return is(Field.NW_PROTO, proto);
    }

    @Override
    public boolean tpSrcIs(int port) {
        return is(Field.TP_SRC, port);
    }

    @Override
    public boolean tpDstIs(int port) {
        return is(Field.TP_DST, port);
    }

    @Override
    public boolean ipSrcIn(int prefix, int length) {
        return test(new FieldTest.Prefix(Field.NW_SRC, prefix, length));
    }

    @Override
    public boolean ipDstIn(int prefix, int length) {
        return test(new FieldTest.Prefix(Field.NW_DST, prefix, length));
    }
}
