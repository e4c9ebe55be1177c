package net.beaconcontroller.web.jetty;

import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpChannelState;
import org.eclipse.jetty.server.internal.HttpConnection;

/**
 * Jetty's HTTP/1.1 connections with two races of Jetty 12.0 (12.0.39 included) mended. Both were found by
 * {@code rest_fuzz.py} (issue 28), which sends the requests that start them by the hundred; both left a stack trace in
 * the log, the first worse.
 * <ol>
 * <li>Two threads in one connection's {@code onFillable}. When the parser refuses a request's head (a 400 for a bad
 * Host or Transfer-Encoding header, say), the parsing thread hands the error response to another thread and goes on
 * to release the connection's request buffer. The response can complete first; as no handler took the request, its
 * completion dispatches {@code onFillable} again, on a third thread, while the parsing thread is still in it. Both use
 * and release the same pooled buffer: {@code IllegalStateException: already released} from
 * {@code HttpConnection.releaseRequestBuffer} at best, at worst a buffer back in the pool while still in use, under
 * another connection's bytes. Here a pass that finds another under way on its connection leaves its work to that
 * thread, which runs one pass more as soon as its own is done: Jetty's passes one after the other, as if the second
 * had been dispatched a moment later.</li>
 * <li>A fill interest whose type is asked after its request is gone. A request answered while a read of its body
 * still waits (a client that declared a body and sent none of it, answered 408) is aborted, its read failed and its
 * channel recycled. If the client's next bytes (or its close) arrive meanwhile, the selector may have taken the
 * waiting read's callback and ask its invocation type after the recycling; the recycled channel answers null, and
 * the selector's thread fails with a {@code NullPointerException} ("Unable to produce"). Here it answers
 * {@code BLOCKING}, Jetty's own answer for a callback it knows nothing of; the read it belonged to is already failed,
 * so the task finds nothing to do.</li>
 * </ol>
 * This bundle is a fragment of {@code org.eclipse.jetty.server} because {@link HttpConnection} and
 * {@link HttpChannelState} are in its internal package. {@code PatchedHttpConnectionFactoryTest} shows what Jetty does
 * unmended; when one of those tests fails because Jetty no longer does it, its mend here can go.
 */
public class PatchedHttpConnectionFactory extends HttpConnectionFactory {
    public PatchedHttpConnectionFactory(HttpConfiguration config) {
        super(config);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        var connection = create(connector, endPoint);
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        return configure(connection, connector, endPoint);
    }

    /** A new connection; the tests' seam. */
    PatchedHttpConnection create(Connector connector, EndPoint endPoint) {
        return new PatchedHttpConnection(getHttpConfiguration(), connector, endPoint);
    }

    static class PatchedHttpConnection extends HttpConnection {
        /** Passes asked for and not yet run to their end: the one under way and those left to its thread. */
        private final AtomicInteger passes = new AtomicInteger();

        PatchedHttpConnection(HttpConfiguration config, Connector connector, EndPoint endPoint) {
            super(config, connector, endPoint);
        }

        /** Called by the end point when bytes arrive, and by Jetty's dispatch to resume after a response. */
        @Override
        public void onFillable() {
            if (passes.getAndIncrement() > 0) {
                return; // the thread in a pass runs this one next
            }
            try {
                do {
                    pass();
                } while (passes.decrementAndGet() > 0);
            } catch (RuntimeException | Error e) {
                // Jetty's pass closed the end point before this escaped it: nothing is left to run.
                passes.set(0);
                throw e;
            }
        }

        /** One pass of Jetty's own {@code onFillable}. */
        void pass() {
            super.onFillable();
        }

        @Override
        protected HttpChannel newHttpChannel(Server server, HttpConfiguration configuration) {
            return new HttpChannelState(this) {
                @Override
                public InvocationType getInvocationType() {
                    var type = super.getInvocationType();
                    return type == null ? InvocationType.BLOCKING : type;
                }
            };
        }
    }
}
