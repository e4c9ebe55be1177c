package net.beaconcontroller.web.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What Jetty's HTTP/1.1 connection does unmended, and the patched one instead. A request head Jetty's parser refuses:
 * Jetty runs the connection's {@code onFillable} twice at once, the patched connection one pass after the other (the
 * race is made certain, not left to chance: the parsing thread, once it has handed the 400 away, waits until Jetty
 * calls {@code onFillable} again). A channel without a request: Jetty's has no invocation type, the patched one is
 * blocking.
 */
class PatchedHttpConnectionFactoryTest {
    private static final String REFUSED = "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n"
            + "Connection: close\r\n\r\n";

    /**
     * What the connections did: the most passes of Jetty's {@code onFillable} under way at once on one connection (each
     * counts its own in {@code inside}), the passes, the first two calls.
     */
    private static final class Probe {
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger passes = new AtomicInteger();
        final CountDownLatch calledAgain = new CountDownLatch(2);

        void enter(AtomicInteger inside) {
            passes.incrementAndGet();
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
        }
    }

    private final Probe probe = new Probe();
    private Server server;

    /** The parsing thread hands the refusal to a thread of its own, then waits for the next onFillable call. */
    private final class HoldingPool extends QueuedThreadPool {
        @Override
        public boolean tryExecute(Runnable task) {
            if (HttpConnection.getCurrentConnection() == null) {
                return super.tryExecute(task);
            }
            new Thread(task, "refusal").start();
            try {
                probe.calledAgain.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
    }

    private int start(HttpConnectionFactory factory) throws Exception {
        server = new Server(new HoldingPool());
        var connector = new ServerConnector(server, factory);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.write(true, null, callback);
                return true;
            }
        });
        server.start();
        return connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private static String refused(int port) throws Exception {
        try (var socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(REFUSED.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** Jetty's own connection: the second pass starts while the first is still under way. */
    @Test
    @Timeout(30)
    void jettyRunsTwoPassesAtOnce() throws Exception {
        int port = start(new HttpConnectionFactory() {
            @Override
            public org.eclipse.jetty.io.Connection newConnection(Connector connector, EndPoint endPoint) {
                return configure(new HttpConnection(getHttpConfiguration(), connector, endPoint) {
                    private final AtomicInteger inside = new AtomicInteger();

                    @Override
                    public void onFillable() {
                        probe.enter(inside);
                        probe.calledAgain.countDown();
                        try {
                            super.onFillable();
                        } finally {
                            inside.decrementAndGet();
                        }
                    }
                }, connector, endPoint);
            }
        });
        assertTrue(refused(port).startsWith("HTTP/1.1 400"));
        assertTrue(probe.calledAgain.await(5, TimeUnit.SECONDS), "Jetty no longer resumes a refused connection:"
                + " the serial onFillable may go");
        assertTrue(probe.most.get() >= 2, "Jetty no longer runs two passes at once: the serial onFillable may go");
    }

    @Test
    @Timeout(30)
    void thePatchedConnectionRunsTheSecondPassAfterTheFirst() throws Exception {
        int port = start(new PatchedHttpConnectionFactory(new HttpConfiguration()) {
            @Override
            PatchedHttpConnection create(Connector connector, EndPoint endPoint) {
                return new PatchedHttpConnection(getHttpConfiguration(), connector, endPoint) {
                    private final AtomicInteger inside = new AtomicInteger();

                    @Override
                    public void onFillable() {
                        probe.calledAgain.countDown();
                        super.onFillable();
                    }

                    @Override
                    void pass() {
                        probe.enter(inside);
                        try {
                            super.pass();
                        } finally {
                            inside.decrementAndGet();
                        }
                    }
                };
            }
        });
        for (int i = 0; i < 3; i++) {
            var answer = refused(port);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        }
        assertEquals(0, probe.calledAgain.getCount());
        assertEquals(1, probe.most.get(), "two passes at once");
        assertTrue(probe.passes.get() >= 2, "the second call's pass was run: " + probe.passes.get());
    }

    /** The connection that has read no request yet stands for one whose request is done and recycled. */
    @Test
    void jettysChannelWithoutARequestHasNoInvocationType() {
        var connector = new ServerConnector(new Server());
        var connection = new HttpConnection(new HttpConfiguration(), connector, new ByteArrayEndPoint());
        assertNull(connection.getHttpChannel().getInvocationType(), "Jetty's channel now has a type of its own:"
                + " the patched channel may go");
    }

    @Test
    void thePatchedChannelWithoutARequestIsBlocking() {
        var connector = new ServerConnector(new Server());
        var connection = new PatchedHttpConnectionFactory(new HttpConfiguration()).create(connector,
                new ByteArrayEndPoint());
        assertEquals(Invocable.InvocationType.BLOCKING, connection.getHttpChannel().getInvocationType());
    }
}
