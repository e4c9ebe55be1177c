package net.beaconcontroller.core.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class WaitingForSwitchTest {
    private final WaitingForSwitch<String, Integer> waiting = new WaitingForSwitch<>(Math::max, 2);

    @Test
    void recordsComeOutWhenASwitchTheyNameComes() {
        waiting.park("link", 1, 10, 20);
        waiting.park("host", 2, 30);
        assertEquals(List.of(1), waiting.take(20));
        assertEquals(List.of(), waiting.take(10), "taken out once");
        assertEquals(1, waiting.size());
    }

    @Test
    void aKeyWaitsOnceWithTheRecordKeepChooses() {
        waiting.park("host", 5, 30);
        waiting.park("host", 3, 40);
        assertEquals(List.of(), waiting.take(30), "the newer record's switch is the one it waits for");
        assertEquals(List.of(5), waiting.take(40));
    }

    @Test
    void fullMeansNotKeptAndStaleRecordsGo() {
        assertTrue(waiting.park("a", 1, 1));
        assertTrue(waiting.park("b", 2, 2));
        assertFalse(waiting.park("c", 3, 3));
        assertTrue(waiting.park("a", 4, 1), "a key already waiting is replaced, not added");
        waiting.drop(r -> r == 2);
        assertEquals(List.of(4), waiting.takeAll());
        assertEquals(0, waiting.size());
    }
}
