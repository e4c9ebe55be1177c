package net.beaconcontroller.connections.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import net.beaconcontroller.connections.HeldConnection;

/** The holder with real sockets on loopback: kept, handed back, closed when untaken or when it stops. */
class ConnectionHolderTest {
    private final List<SocketChannel> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        for (var c : open) {
            c.close();
        }
    }

    /** The controller's end of a fresh loopback connection; its peer is kept open too. */
    private HeldConnection connection(String id) throws IOException {
        try (var server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            var peer = SocketChannel.open(server.getLocalAddress());
            var mine = server.accept();
            mine.configureBlocking(false);
            open.add(peer);
            open.add(mine);
            return new HeldConnection(mine, id, null, ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.allocate(0), 7,
                    Instant.now());
        }
    }

    private static long timerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("beacon-connection-holder") && t.isAlive()).count();
    }

    @Test
    void depositedConnectionsComeBackOnceInOrderAndStayOpen() throws Exception {
        var holder = new ConnectionHolder(true, Duration.ofSeconds(60));
        try {
            var a = connection("a");
            var b = connection("b");
            assertTrue(holder.deposit(a));
            assertTrue(holder.deposit(b));
            assertEquals(List.of(a, b), holder.withdrawAll());
            assertEquals(List.of(), holder.withdrawAll(), "handed back once");
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (timerThreads() > 0 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertEquals(0, timerThreads(), "holding nothing, it runs no thread (an update must leave none behind)");
            assertTrue(a.channel().isOpen() && b.channel().isOpen());
            assertEquals(2, a.unread().remaining());
            assertTrue(a.unread().isReadOnly(), "the next core cannot change what the holder keeps");
        } finally {
            holder.deactivate();
        }
    }

    @Test
    void aConnectionNotTakenWithinTheGraceIsClosedAndOneTakenIsNot() throws Exception {
        var holder = new ConnectionHolder(true, Duration.ofMillis(200));
        try {
            var late = connection("late");
            var taken = connection("taken");
            holder.deposit(late);
            assertEquals(List.of(late), holder.withdrawAll());
            holder.deposit(taken);
            holder.withdrawAll();
            var untaken = connection("untaken");
            holder.deposit(untaken);
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (untaken.channel().isOpen() && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertFalse(untaken.channel().isOpen(), "closed after its grace");
            assertTrue(late.channel().isOpen() && taken.channel().isOpen(), "taken in time: left open");
            assertEquals(List.of(), holder.withdrawAll());
        } finally {
            holder.deactivate();
        }
    }

    @Test
    void offItTakesNothingAndStoppedItClosesWhatItHolds() throws Exception {
        var off = new ConnectionHolder(false, Duration.ofSeconds(60));
        var c = connection("c");
        assertFalse(off.deposit(c));
        assertTrue(c.channel().isOpen(), "the caller closes what was refused");
        off.deactivate();

        var holder = new ConnectionHolder(true, Duration.ofSeconds(60));
        holder.deposit(c);
        holder.deactivate();
        assertFalse(c.channel().isOpen());
        assertFalse(holder.deposit(connection("d")), "a stopped holder takes nothing");
    }
}
