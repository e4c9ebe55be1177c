package net.beaconcontroller.openflow.action;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;

import net.beaconcontroller.openflow.OFPort;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Shared helpers for the action tests: hex vectors, writing, and random actions of every type. */
final class ActionFixtures {
    private ActionFixtures() {
    }

    /** Bytes from hex digits; whitespace is ignored so vectors can be laid out by field. */
    static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits.replaceAll("\\s+", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] bytes(OFAction a) {
        var buf = ByteBuffer.allocate(a.length());
        a.writeTo(buf);
        if (buf.hasRemaining()) {
            throw new AssertionError(a + " wrote " + buf.position() + " bytes but says it has " + a.length());
        }
        return buf.array();
    }

    static byte[] bytes(List<OFAction> actions) {
        var buf = ByteBuffer.allocate(OFActions.totalLength(actions));
        OFActions.writeList(buf, actions);
        return buf.array();
    }

    static Arbitrary<Integer> ports() {
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 0xffff),
                Arbitraries.integers().between(OFPort.IN_PORT, OFPort.NONE));
    }

    static Arbitrary<Long> macs() {
        return Arbitraries.longs().between(0, 0xffff_ffff_ffffL);
    }

    /** Every action type with values over its whole range. */
    static Arbitrary<OFAction> actions() {
        Arbitrary<Integer> u16 = Arbitraries.integers().between(0, 0xffff);
        return Arbitraries.oneOf(
                Combinators.combine(ports(), Arbitraries.oneOf(Arbitraries.just(0), u16)).as(OFActionOutput::new),
                Combinators.combine(ports(), Arbitraries.longs().between(0, 0xffff_ffffL)).as(OFActionEnqueue::new),
                Arbitraries.integers().between(0, 4095).map(OFActionSetVlanVid::new),
                Arbitraries.integers().between(0, 7).map(OFActionSetVlanPcp::new),
                Arbitraries.just(new OFActionStripVlan()),
                macs().map(OFActionSetDlSrc::new),
                macs().map(OFActionSetDlDst::new),
                Arbitraries.integers().map(OFActionSetNwSrc::new),
                Arbitraries.integers().map(OFActionSetNwDst::new),
                Arbitraries.integers().between(0, 63).map(dscp -> new OFActionSetNwTos(dscp << 2)),
                u16.map(OFActionSetTpSrc::new),
                u16.map(OFActionSetTpDst::new),
                Combinators.combine(Arbitraries.integers(), Arbitraries.integers().between(0, 4)
                        .flatMap(words -> Arbitraries.bytes().array(byte[].class).ofSize(8 * words)))
                        .as(OFActionVendor::new));
    }

    static Arbitrary<List<OFAction>> actionLists() {
        return actions().list().ofMaxSize(12);
    }
}
