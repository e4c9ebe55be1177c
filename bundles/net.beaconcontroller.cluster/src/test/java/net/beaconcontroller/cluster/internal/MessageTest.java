package net.beaconcontroller.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class MessageTest {
    private static final long DPID = 0x0102030405060708L;

    private static final List<Message> ALL = List.of(
            new Message.Barrier(DPID, "m1", 42, "m2"),
            new Message.BarrierDone(DPID, "m1", 42, null),
            new Message.BarrierDone(DPID, "m1", 43, "the switch has no master"),
            new Message.Migrate(DPID, "m1", "m3"),
            new Message.TakenOver(DPID, "m2", "m1"),
            new Message.Reassert(DPID, "m2"),
            new Message.Step(Message.Phase.PREPARE, DPID, "m1", 7),
            new Message.Step(Message.Phase.READY, DPID, "m2", 7),
            new Message.Step(Message.Phase.DONE, DPID, "m1", 7),
            new Message.Step(Message.Phase.COMPLETE, DPID, "m2", 7),
            new Message.Step(Message.Phase.ABORT, DPID, "m2", 7));

    @Test
    void everyKindSurvivesTheRoundTrip() {
        for (var m : ALL) {
            assertEquals(m, Message.decode(m.encode()));
        }
        var w = new Message.Write(DPID, "m1", new byte[] {1, 0, 0, 8, 0, 0, 0, 1});
        var back = (Message.Write) Message.decode(w.encode());
        assertEquals(w.dpid(), back.dpid());
        assertEquals(w.from(), back.from());
        assertArrayEquals(w.openflow(), back.openflow());
    }

    @Test
    void tagsAndVersionAreStable() {
        var expected = List.of(2, 3, 3, 4, 10, 11, 5, 6, 7, 8, 9);
        for (int i = 0; i < ALL.size(); i++) {
            var bytes = ALL.get(i).encode();
            assertEquals(Message.VERSION, bytes[0]);
            assertEquals(expected.get(i).byteValue(), bytes[1], ALL.get(i).toString());
        }
        assertEquals(1, new Message.Write(DPID, "m1", new byte[0]).encode()[1]);
    }

    @Test
    void anotherVersionAnUnknownTagTruncationAndGarbageAreRefused() {
        for (var m : ALL) {
            var bytes = m.encode();
            for (int n = 0; n < bytes.length; n++) {
                int cut = n;
                assertThrows(IllegalArgumentException.class, () -> Message.decode(Arrays.copyOf(bytes, cut)), m + " cut");
            }
            var longer = Arrays.copyOf(bytes, bytes.length + 1);
            assertThrows(IllegalArgumentException.class, () -> Message.decode(longer));
        }
        var bytes = ALL.get(0).encode();
        bytes[0] = 2;
        var e = assertThrows(IllegalArgumentException.class, () -> Message.decode(bytes));
        assertTrue(e.getMessage().contains("version 2"), e.getMessage());
        var unknown = ALL.get(0).encode();
        unknown[1] = 99;
        assertThrows(IllegalArgumentException.class, () -> Message.decode(unknown));
        var write = new Message.Write(DPID, "m1", new byte[] {1, 2, 3}).encode();
        write[write.length - 5] = 0x7f; // the OpenFlow length, far beyond the bytes
        assertThrows(IllegalArgumentException.class, () -> Message.decode(write));
    }
}
