package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Jetty's own error pages (a request it refuses before Beacon's servlet sees it: a bad URI or header, a body over
 * the size limit, a client too slow) as the same JSON problem details Beacon's endpoints answer, not HTML. For every
 * method: Jetty writes error bodies only for GET, POST and HEAD, and a refused PUT or DELETE had an empty one.
 */
final class ErrorPages {
    private static final HttpField TYPE = new HttpField(HttpHeader.CONTENT_TYPE, Problems.TYPE);

    private ErrorPages() {
    }

    private static String detail(int status, String message) {
        return message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
    }

    /** Errors of the server as a whole: before and outside the servlet context. */
    static final class Server extends org.eclipse.jetty.server.handler.ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, String message,
                Throwable cause, Callback callback) {
            response.getHeaders().put(TYPE);
            response.write(true, ByteBuffer.wrap(Problems.json(code, detail(code, message))
                    .getBytes(StandardCharsets.UTF_8)), callback);
        }

        /** A request the HTTP parser could not read (answered without a handler). */
        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(TYPE);
            return ByteBuffer.wrap(Problems.json(status, detail(status, reason)).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Errors inside the servlet context: what the servlet container refuses, or a sendError. */
    static final class Servlet extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateAcceptableResponse(ServletContextRequest base, HttpServletRequest request,
                HttpServletResponse response, int code, String message) throws IOException {
            response.setContentType(Problems.TYPE);
            response.setCharacterEncoding("UTF-8");
            response.getOutputStream().write(Problems.json(code, detail(code, message))
                    .getBytes(StandardCharsets.UTF_8));
        }
    }
}
