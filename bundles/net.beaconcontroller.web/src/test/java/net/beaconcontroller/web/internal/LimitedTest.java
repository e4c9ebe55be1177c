package net.beaconcontroller.web.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EndPoint;
import org.junit.jupiter.api.Test;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;

/** The body limiter's reader: one per request, counted, and closing it closes the container's stream. */
class LimitedTest {
    private static final class Body extends ServletInputStream {
        private final ByteArrayInputStream bytes;
        boolean closed;

        Body(String text) {
            bytes = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public boolean isFinished() {
            return bytes.available() == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static HttpServletRequest request(Body body) {
        return (HttpServletRequest) Proxy.newProxyInstance(LimitedTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getInputStream" -> body;
                    case "hashCode" -> 0;
                    default -> null;
                });
    }

    @Test
    void theReaderIsOneAndKeepsWhatItBuffered() throws IOException {
        var body = new Body("line one\nline two\n");
        try (var limited = new Limited(request(body), 1024, null)) {
            var reader = limited.getReader();
            assertEquals("line one", reader.readLine());
            assertSame(reader, limited.getReader());
            assertEquals("line two", limited.getReader().readLine());
            assertThrows(IllegalStateException.class, limited::getInputStream);
            reader.close();
            assertTrue(body.closed);
        }
    }

    @Test
    void theStreamExcludesTheReader() throws IOException {
        try (var limited = new Limited(request(new Body("{}")), 1024, null)) {
            assertEquals("{}", new String(limited.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            assertThrows(IllegalStateException.class, limited::getReader);
        }
    }

    /** Issue 28: the short idle timeout that answers a silent client 408 holds while the body is read, no longer. */
    @Test
    void theShortIdleTimeoutEndsWithTheBody() throws IOException {
        long[] idle = {30_000};
        var endPoint = (EndPoint) Proxy.newProxyInstance(LimitedTest.class.getClassLoader(),
                new Class<?>[] {EndPoint.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getIdleTimeout" -> idle[0];
                    case "setIdleTimeout" -> {
                        idle[0] = (Long) args[0];
                        yield null;
                    }
                    case "hashCode" -> 0;
                    default -> null;
                });
        try (var limited = new Limited(request(new Body("{\"a\":1}")), 1024, endPoint)) {
            var in = limited.getInputStream();
            assertEquals(Limited.GRACE_NANOS / 1_000_000L, idle[0]);
            assertEquals('{', in.read());
            assertEquals(Limited.GRACE_NANOS / 1_000_000L, idle[0]);
            assertEquals("\"a\":1}", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(30_000, idle[0]);
        }
    }

    @Test
    void readingThroughTheReaderPastTheLimitIsA413() throws IOException {
        try (var limited = new Limited(request(new Body("x".repeat(5000))), 100, null)) {
            var e = assertThrows(HttpException.RuntimeException.class, () -> limited.getReader().read(new char[8192]));
            assertEquals(413, e.getCode());
        }
    }
}
