package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.util.Threads;

/**
 * The OpenFlow listeners: one server socket per configured port, all accepted by one thread, which hands every new
 * connection on. The thread starts accepting once the framework has started and ends with {@link #close}.
 */
final class Acceptor {
    private static final Logger log = LoggerFactory.getLogger(Acceptor.class);
    private static final int START_UP_LIMIT_SECONDS = 60;

    /**
     * A port to listen on, the setting it comes from (named when it cannot be bound), and whether switches speak TLS
     * on it.
     */
    record Endpoint(String key, InetSocketAddress address, boolean tls) { }

    private final Selector selector;
    private final List<ServerSocketChannel> servers = new ArrayList<>();
    private final Thread thread;

    /**
     * Binds every endpoint; when one cannot be bound, the others are released and the error names its address and
     * setting.
     */
    Acceptor(List<Endpoint> endpoints, CountDownLatch frameworkStarted, BiConsumer<SocketChannel, Endpoint> handOver)
            throws IOException {
        selector = Selector.open();
        try {
            for (var endpoint : endpoints) {
                servers.add(bind(endpoint));
            }
        } catch (IOException | RuntimeException e) {
            closeAll();
            throw e;
        }
        thread = Threads.named(() -> run(frameworkStarted, handOver), "beacon-acceptor");
    }

    private ServerSocketChannel bind(Endpoint endpoint) throws IOException {
        var server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(endpoint.address(), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT, endpoint);
            return server;
        } catch (IOException | RuntimeException e) { // an unresolvable address is an unchecked exception
            server.close();
            var address = endpoint.address();
            var named = new BindException("cannot listen on " + address.getHostString() + ":" + address.getPort()
                    + " (" + endpoint.key() + "): " + e.getMessage());
            named.initCause(e);
            throw named;
        }
    }

    void start() {
        thread.start();
    }

    /** The addresses bound, in the order of the endpoints. */
    List<InetSocketAddress> addresses() throws IOException {
        var result = new ArrayList<InetSocketAddress>();
        for (var server : servers) {
            result.add((InetSocketAddress) server.getLocalAddress());
        }
        return result;
    }

    /** Stops accepting and closes the listeners; waits up to {@code millis} for the thread. */
    void close(long millis) throws InterruptedException {
        thread.interrupt(); // it may still wait for the framework
        closeAll();
        if (thread.isAlive()) {
            thread.join(millis);
        }
    }

    private void closeAll() {
        for (var server : servers) {
            try {
                server.close();
            } catch (IOException e) {
                log.warn("closing the listener {} failed: {}", server, e.toString());
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            log.warn("closing the listeners' selector failed: {}", e.toString());
        }
    }

    private void run(CountDownLatch frameworkStarted, BiConsumer<SocketChannel, Endpoint> handOver) {
        try {
            // Bounded: a bundle marked to start at a level the framework never reaches must not keep switches out.
            if (!frameworkStarted.await(START_UP_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("the framework's start-up is not over after {} s: accepting switches now",
                        START_UP_LIMIT_SECONDS);
            }
        } catch (InterruptedException e) {
            return;
        }
        try {
            while (selector.isOpen()) {
                selector.select();
                for (var key : selector.selectedKeys()) {
                    acceptAll((ServerSocketChannel) key.channel(), (Endpoint) key.attachment(), handOver);
                }
                selector.selectedKeys().clear();
            }
        } catch (ClosedSelectorException e) {
            // closed by close(): the controller stops
        } catch (IOException e) {
            log.error("the OpenFlow listeners stopped: {}", e.toString());
        }
    }

    private void acceptAll(ServerSocketChannel server, Endpoint endpoint,
            BiConsumer<SocketChannel, Endpoint> handOver) {
        while (server.isOpen()) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return; // closed by close(): the controller stops
            } catch (IOException e) {
                // E.g. out of file descriptors: accept fails at once, every time; don't spin on it.
                log.warn("accept failed: {}", e.toString());
                pause();
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                handOver.accept(channel, endpoint);
            } catch (RuntimeException e) {
                log.error("could not hand over the connection {}", channel, e);
                close(channel);
            }
        }
    }

    private static void close(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("closing {} failed: {}", channel, e.toString());
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
