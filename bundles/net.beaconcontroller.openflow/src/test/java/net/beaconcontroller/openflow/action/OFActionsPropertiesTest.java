package net.beaconcontroller.openflow.action;

import static net.beaconcontroller.openflow.action.ActionFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;

import net.beaconcontroller.openflow.OFParseException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Random actions through bytes and text; random and mutated bytes through the reader. */
class OFActionsPropertiesTest {
    @Provide
    Arbitrary<OFAction> actions() {
        return ActionFixtures.actions();
    }

    @Provide
    Arbitrary<List<OFAction>> lists() {
        return ActionFixtures.actionLists();
    }

    @Property
    void everyActionRoundTripsThroughBytes(@ForAll("actions") OFAction a) throws Exception {
        byte[] wire = bytes(a);
        var buf = ByteBuffer.wrap(wire);
        OFAction back = OFAction.readFrom(buf);
        assertEquals(a, back);
        assertEquals(a.hashCode(), back.hashCode());
        assertEquals(wire.length, buf.position());
        assertEquals(0, wire.length % 8);
        assertArrayEquals(wire, bytes(back));
    }

    @Property
    void listsRoundTripThroughBytesAndText(@ForAll("lists") List<OFAction> list) throws Exception {
        byte[] wire = bytes(list);
        assertEquals(OFActions.totalLength(list), wire.length);
        assertEquals(list, OFActions.readList(ByteBuffer.wrap(wire), wire.length));
        assertEquals(list, OFActions.parse(OFActions.toString(list)));
    }

    @Property(tries = 3000)
    void randomBytesGiveAListOrAParseError(@ForAll @Size(max = 80) byte[] data, @ForAll @IntRange(max = 80) int n) {
        checkReadList(data, Math.min(n, data.length));
    }

    /** Valid lists with a few bytes changed, so that the length and type checks are what stops them. */
    @Property(tries = 3000)
    void mutatedListsGiveAListOrAParseError(@ForAll("mutated") byte[] data) {
        checkReadList(data, data.length);
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        return Combinators.combine(lists().filter(l -> !l.isEmpty()), Arbitraries.integers().between(0, 1 << 20)
                .list().ofMinSize(1).ofMaxSize(4), Arbitraries.bytes().list().ofSize(4))
                .as((list, positions, values) -> {
                    byte[] b = bytes(list);
                    for (int i = 0; i < positions.size(); i++) {
                        b[positions.get(i) % b.length] = values.get(i);
                    }
                    return b;
                });
    }

    /**
     * Either the whole list is read, the position moves by exactly its length and writing it back gives bytes that
     * read to the same list; or it is an OFParseException and the position does not move. Nothing else.
     */
    private static void checkReadList(byte[] data, int length) {
        var buf = ByteBuffer.wrap(data);
        List<OFAction> list;
        try {
            list = OFActions.readList(buf, length);
        } catch (OFParseException e) {
            assertEquals(0, buf.position());
            return;
        }
        assertEquals(length, buf.position());
        byte[] again = bytes(list);
        assertEquals(length, again.length);
        try {
            assertEquals(list, OFActions.readList(ByteBuffer.wrap(again), length));
        } catch (OFParseException e) {
            throw new AssertionError("re-reading what was written failed: " + e.getMessage(), e);
        }
    }
}
