package net.beaconcontroller.core.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.core.test.MemorySharedState;

/** Two members' tables over one in-memory cluster, told on its event thread as Hazelcast's listeners tell. */
class SharedTableTest {
    private record Codec(int version) implements SharedCodec<String> {
        @Override
        public void write(String value, DataOutput out) throws IOException {
            out.writeUTF(value);
        }

        @Override
        public String read(DataInput in) throws IOException {
            return in.readUTF();
        }
    }

    private final MemorySharedState maps = new MemorySharedState();

    @AfterEach
    void close() {
        maps.close();
    }

    @Test
    void aMemberIsToldWhatTheOthersWroteAndNeverItsOwnWrites() {
        var mine = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var theirs = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        mine.subscribe(told::add);
        maps.settle();
        mine.put(1L, "mine");
        theirs.put(2L, "theirs");
        theirs.remove(1L);
        maps.settle();
        assertEquals(List.of(new SharedTable.Change<>(2L, "theirs", theirs.writer()),
                new SharedTable.Change<Long, String>(1L, null, 0)), told);
        assertEquals(Optional.of("theirs"), mine.get(2L).toCompletableFuture().join());
        assertTrue(mine.clustered());
    }

    @Test
    void anEntryOfAnotherVersionIsSkippedAndCounted() {
        var older = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var newer = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(2));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        newer.subscribe(told::add);
        maps.settle(); // an entry written while a subscription starts may be told twice
        older.put(1L, "v1");
        maps.map("t").set("zz-not-a-key", new byte[] {1}, Duration.ofMinutes(1));
        maps.settle();
        assertTrue(told.isEmpty());
        assertEquals(2, newer.unreadable());
        assertEquals(Optional.empty(), newer.get(1L).toCompletableFuture().join());
        // Unreadable is as good as absent: the newer version's value replaces it.
        assertEquals("v2", newer.setIfAbsent(1L, "v2"));
        assertEquals("v2", newer.setIfAbsent(1L, "v3"));
    }

    @Test
    void anUnreadableEntryReplacedMeanwhileIsNotOverwritten() {
        var map = maps.map("t");
        map.set("1", new byte[] {1, 1, 0, 0}, Duration.ofMinutes(1));
        var first = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var second = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        second.subscribe(told::add);
        maps.settle();
        assertEquals("a", first.setIfAbsent(1L, "a"));
        // The second member read the damaged bytes before the first replaced them: its replace must not win.
        assertFalse(map.replace("1", new byte[] {1, 1, 0, 0}, new byte[] {9}));
        assertEquals("a", second.setIfAbsent(1L, "b"));
        maps.settle();
        assertEquals(List.of(new SharedTable.Change<>(1L, "a", first.writer())), told);
    }

    @Test
    void setIfAbsentTellsNothingWhenTheEntryWasThere() {
        var mine = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var theirs = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        mine.subscribe(told::add);
        maps.settle();
        theirs.put(1L, "first");
        theirs.setIfAbsent(1L, "second");
        maps.settle();
        assertEquals(List.of(new SharedTable.Change<>(1L, "first", theirs.writer())), told);
    }

    @Test
    void aDamagedEntryIsSkipped() {
        var table = SharedTable.open(maps, "t", SharedKeys.HEX, new Codec(1));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        table.subscribe(told::add);
        maps.settle();
        maps.map("t").set("1", new byte[] {1, 1, 0, 0}, Duration.ofMinutes(1));
        maps.settle();
        assertTrue(told.isEmpty());
        assertEquals(1, table.unreadable());
    }

    @Test
    void aloneNothingIsSharedAndTheCodeIsTheSame() {
        var table = SharedTable.open(null, "t", SharedKeys.HEX, new Codec(1));
        var told = new ArrayList<SharedTable.Change<Long, String>>();
        table.subscribe(told::add);
        table.put(1L, "a");
        assertEquals("b", table.setIfAbsent(1L, "b"));
        assertEquals(Optional.empty(), table.get(1L).toCompletableFuture().join());
        assertTrue(told.isEmpty());
        assertFalse(table.clustered());
    }
}
