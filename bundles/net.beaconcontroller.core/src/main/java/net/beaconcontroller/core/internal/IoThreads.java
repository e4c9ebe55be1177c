package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.connections.IConnectionHolder;
import net.beaconcontroller.core.IoLoopStats;

/**
 * The OpenFlow listeners and the I/O threads from start to stop: which loop takes a connection (a new one, or one a
 * previous core handed over) and where the connections go when they stop. Guarded by this object.
 */
final class IoThreads {
    private static final Logger log = LoggerFactory.getLogger(IoThreads.class);
    private static final long JOIN_MILLIS = 2000;

    private final Controller controller;
    /** The TLS listener's context as it is when a connection arrives (the settings may change). */
    private final Supplier<TlsContext> tls;
    private final List<IOLoop> loops = new ArrayList<>();
    private Acceptor acceptor;

    IoThreads(Controller controller, Supplier<TlsContext> tls) {
        this.controller = controller;
        this.tls = tls;
    }

    /** Opens the listeners and starts {@code threads} I/O threads; accepting waits for {@code frameworkStarted}. */
    synchronized void start(List<Acceptor.Endpoint> endpoints, int threads, CountDownLatch frameworkStarted)
            throws IOException {
        try {
            for (int i = 0; i < threads; i++) {
                loops.add(new IOLoop(controller, i));
            }
            acceptor = new Acceptor(endpoints, frameworkStarted, this::adopt);
        } catch (IOException | RuntimeException e) {
            loops.forEach(IOLoop::closeUnstarted);
            loops.clear();
            acceptor = null;
            throw e;
        }
        loops.forEach(IOLoop::start);
        acceptor.start();
        var bound = acceptor.addresses();
        var where = new ArrayList<String>();
        for (int i = 0; i < bound.size(); i++) {
            var a = bound.get(i);
            where.add(a.getHostString() + ":" + a.getPort() + (endpoints.get(i).tls() ? " (TLS)" : ""));
        }
        log.info("listening for OpenFlow switches on {} with {} I/O thread(s)", String.join(" and ", where), threads);
    }

    /**
     * Closes the listeners and stops the I/O threads; the active connections go to {@code holder}, or are closed
     * without one.
     *
     * @return whether they were running
     */
    synchronized boolean stop(IConnectionHolder holder) {
        if (acceptor == null) {
            return false;
        }
        try {
            acceptor.close(JOIN_MILLIS);
            loops.forEach(loop -> loop.stop(holder));
            for (var loop : loops) {
                loop.join(JOIN_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loops.clear();
        acceptor = null;
        return true;
    }

    /** Takes over the connections a previous core left in {@code holder}, if running. */
    synchronized void adoptHeld(IConnectionHolder holder) {
        if (acceptor == null) {
            return;
        }
        for (var held : holder.withdrawAll()) {
            var loop = runningLoop();
            if (loop != null) {
                loop.adoptHeld(held, tls.get());
                continue;
            }
            log.error("no I/O thread is running: closing the connection of switch {}", held.switchId());
            close(held.channel());
        }
    }

    /** The bound ports, {@code controller.listenPort}'s first. */
    synchronized List<Integer> localPorts() throws IOException {
        if (acceptor == null) {
            throw new IOException("the controller is not listening");
        }
        return acceptor.addresses().stream().map(InetSocketAddress::getPort).toList();
    }

    synchronized List<IoLoopStats> stats() {
        return loops.stream().map(IOLoop::stats).toList();
    }

    synchronized List<IOLoop> loops() {
        return List.copyOf(loops);
    }

    /** Hands a new connection to the least-loaded running I/O loop; on the acceptor's thread. */
    private void adopt(SocketChannel channel, Acceptor.Endpoint endpoint) {
        var loop = runningLoop();
        if (loop != null) {
            loop.adopt(channel, endpoint.tls() ? tls.get() : null);
            return;
        }
        log.error("no I/O thread is running: refusing the connection from {}", channel.socket().getRemoteSocketAddress());
        close(channel);
    }

    private synchronized IOLoop runningLoop() {
        return loops.stream().filter(IOLoop::isRunning)
                .min(Comparator.comparingInt(l -> l.switchCount.get())).orElse(null);
    }

    private static void close(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("closing the connection {} failed: {}", channel, e.toString());
        }
    }
}
