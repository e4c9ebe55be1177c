package net.beaconcontroller.web.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EndPoint;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * A request whose body ends in a 413 once more than {@code limit} bytes have been read ({@code Content-Length} may be
 * missing, chunked, or smaller than what is sent), and in a 408 when it comes slower than
 * {@link #MIN_BYTES_PER_SECOND} after {@link #GRACE_NANOS}: a client dripping its body cannot hold a server thread.
 * The exception reaches {@link Errors} before a controller has anything to keep. Jetty's own minimum data rate is not
 * used: it measures from the request's start, so a small body read a few milliseconds later already fails it.
 * <p>
 * A client that sends no byte at all never returns from a read, so the rate is never checked: while the body is read
 * the connection's idle timeout is {@link #GRACE_NANOS}, and the read it ends is a 408 too. {@link #close()} puts the
 * server's idle timeout back, so a controller waiting on a switch is not cut by the short one.
 */
final class Limited extends HttpServletRequestWrapper implements AutoCloseable {
    static final long MIN_BYTES_PER_SECOND = 1024;
    static final long GRACE_NANOS = 2_000_000_000L;

    private final long limit;
    private final EndPoint endPoint;
    private final long idleTimeout;
    private ServletInputStream in;
    private BufferedReader reader;

    /** A request Jetty serves: its connection's idle timeout is shortened while the body is read. */
    static Limited of(HttpServletRequest request, long limit) {
        return new Limited(request, limit, ServletContextRequest.getServletContextRequest(request)
                .getConnectionMetaData().getConnection().getEndPoint());
    }

    /** With {@code endPoint} null no idle timeout is touched. */
    Limited(HttpServletRequest request, long limit, EndPoint endPoint) {
        super(request);
        this.limit = limit;
        this.endPoint = endPoint;
        idleTimeout = endPoint == null ? 0 : endPoint.getIdleTimeout();
    }

    /** The body is read (or given up): the connection's own idle timeout again. */
    @Override
    public void close() {
        if (endPoint != null && endPoint.getIdleTimeout() != idleTimeout) {
            endPoint.setIdleTimeout(idleTimeout);
        }
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (reader != null) {
            throw new IllegalStateException("getReader() was called already");
        }
        if (in == null) {
            // Only once the body is read: a controller that never reads it keeps the server's idle timeout.
            if (endPoint != null) {
                endPoint.setIdleTimeout(GRACE_NANOS / 1_000_000L);
            }
            in = new Counting(super.getInputStream());
        }
        return in;
    }

    /**
     * Through the counted stream: the container's reader would read past the limit. One reader per request, as the
     * servlet API promises: a second one would lose what the first buffered.
     */
    @Override
    public BufferedReader getReader() throws IOException {
        if (reader == null) {
            if (in != null) {
                throw new IllegalStateException("getInputStream() was called already");
            }
            var name = getCharacterEncoding();
            reader = new BufferedReader(new InputStreamReader(getInputStream(),
                    name == null ? StandardCharsets.UTF_8 : Charset.forName(name)));
        }
        return reader;
    }

    private interface Read {
        int read() throws IOException;
    }

    private final class Counting extends ServletInputStream {
        private final ServletInputStream body;
        private final long start = System.nanoTime();
        private long read;

        Counting(ServletInputStream body) {
            this.body = body;
        }

        @Override
        public int read() throws IOException {
            int b = timed(() -> body.read());
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = timed(() -> body.read(buf, off, len));
            if (n > 0) {
                count(n);
            }
            return n;
        }

        /**
         * A read the short idle timeout ended is the client's slowness (408); the end of the body ends the short
         * timeout (Limited's close: this stream's own would close the container's stream instead).
         */
        private int timed(Read read) throws IOException {
            int n;
            try {
                n = read.read();
            } catch (IOException e) {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t instanceof TimeoutException) {
                        throw new HttpException.RuntimeException(408, "no request body byte for "
                                + GRACE_NANOS / 1_000_000_000L + " s");
                    }
                }
                throw e;
            }
            if (n < 0 || body.isFinished()) {
                Limited.this.close();
            }
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw new HttpException.RuntimeException(413, "request body over the limit of " + limit
                        + " bytes (web.maxRequestKiB)");
            }
            long late = System.nanoTime() - start - GRACE_NANOS;
            if (late > 0 && read < MIN_BYTES_PER_SECOND * late / 1_000_000_000L) {
                throw new HttpException.RuntimeException(408, "request body slower than " + MIN_BYTES_PER_SECOND
                        + " bytes/s");
            }
        }

        /** Closing a reader over the body closes this: the container's stream learns it too. */
        @Override
        public void close() throws IOException {
            body.close();
        }

        @Override
        public boolean isFinished() {
            return body.isFinished();
        }

        @Override
        public boolean isReady() {
            return body.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            body.setReadListener(listener);
        }
    }
}
