package net.beaconcontroller.web.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.http.HttpException;

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
 */
final class Limited extends HttpServletRequestWrapper {
    static final long MIN_BYTES_PER_SECOND = 1024;
    static final long GRACE_NANOS = 2_000_000_000L;

    private final long limit;
    private ServletInputStream in;

    Limited(HttpServletRequest request, long limit) {
        super(request);
        this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (in == null) {
            in = new Counting(super.getInputStream());
        }
        return in;
    }

    /** Through the counted stream: the container's reader would read past the limit. */
    @Override
    public BufferedReader getReader() throws IOException {
        var name = getCharacterEncoding();
        return new BufferedReader(new InputStreamReader(getInputStream(),
                name == null ? StandardCharsets.UTF_8 : Charset.forName(name)));
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
            int b = body.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = body.read(buf, off, len);
            if (n > 0) {
                count(n);
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
