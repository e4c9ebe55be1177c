package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WireTest {
    @Test
    void aMessageSurvivesTheRoundTrip() {
        var w = new Wire(Wire.Kind.WRITE, 0x0102030405060708L, 42, "member-id", new byte[] {1, 2, 3});
        var back = Wire.decode(w.encode());
        assertEquals(w.kind(), back.kind());
        assertEquals(w.dpid(), back.dpid());
        assertEquals(w.id(), back.id());
        assertEquals(w.from(), back.from());
        assertArrayEquals(w.data(), back.data());
    }

    @Test
    void garbageIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Wire.decode(new byte[] {99, 1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Wire.decode(new byte[0]));
    }
}
