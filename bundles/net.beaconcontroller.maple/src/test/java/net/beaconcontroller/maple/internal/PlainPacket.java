package net.beaconcontroller.maple.internal;

import net.beaconcontroller.maple.Packet;
import net.beaconcontroller.topology.SwitchPort;

/** A packet that records nothing: what a policy says for a header, as the oracle's reference. */
record PlainPacket(Header h) implements Packet {
    @Override
    public SwitchPort inPort() {
        return h.ingress();
    }

    @Override
    public long dlSrc() {
        return h.dlSrc();
    }

    @Override
    public long dlDst() {
        return h.dlDst();
    }

    @Override
    public int dlVlan() {
        return h.dlVlan();
    }

    @Override
    public int dlVlanPcp() {
        return h.dlVlanPcp();
    }

    @Override
    public int dlType() {
        return h.dlType();
    }

    @Override
    public int nwTos() {
        return h.nwTos();
    }

    @Override
    public int nwProto() {
        return h.nwProto();
    }

    @Override
    public int nwSrc() {
        return h.nwSrc();
    }

    @Override
    public int nwDst() {
        return h.nwDst();
    }

    @Override
    public int tpSrc() {
        return h.tpSrc();
    }

    @Override
    public int tpDst() {
        return h.tpDst();
    }

    @Override
    public boolean inPortIs(SwitchPort ingress) {
        return h.ingress().equals(ingress);
    }

    @Override
    public boolean dlSrcIs(long mac) {
        return h.dlSrc() == mac;
    }

    @Override
    public boolean dlDstIs(long mac) {
        return h.dlDst() == mac;
    }

    @Override
    public boolean dlVlanIs(int vlan) {
        return h.dlVlan() == vlan;
    }

    @Override
    public boolean dlTypeIs(int type) {
        return h.dlType() == type;
    }

    @Override
    public boolean nwProtoIs(int proto) {
        return h.nwProto() == proto;
    }

    @Override
    public boolean tpSrcIs(int port) {
        return h.tpSrc() == port;
    }

    @Override
    public boolean tpDstIs(int port) {
        return h.tpDst() == port;
    }

    @Override
    public boolean ipSrcIn(int prefix, int length) {
        return inPrefix(h.nwSrc(), prefix, length);
    }

    @Override
    public boolean ipDstIn(int prefix, int length) {
        return inPrefix(h.nwDst(), prefix, length);
    }

    private static boolean inPrefix(int address, int prefix, int length) {
        return length == 0 || (address >>> (32 - length)) == (prefix >>> (32 - length));
    }
}
