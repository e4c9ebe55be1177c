package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.http.HttpException;
import org.osgi.framework.BundleException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every failure becomes a problem detail ({@code application/problem+json}: status, title, detail), whatever
 * controller it came from: Spring's own (404, 405, 415, bad body) through the superclass, and the few kinds controllers
 * throw, and what Jetty throws while a controller reads the request (a malformed form or multipart body, a body over
 * the limit, a client too slow): the client's fault, a 4xx without a stack trace. A controller signals bad input with
 * {@link org.springframework.web.server.ResponseStatusException} or {@link IllegalArgumentException}.
 */
@RestControllerAdvice
class Errors extends ResponseEntityExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(Errors.class);

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badRequest(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(HttpException.RuntimeException.class)
    ProblemDetail http(HttpException.RuntimeException e) {
        log.debug("request refused while read", e);
        var status = HttpStatus.resolve(e.getCode());
        return ProblemDetail.forStatusAndDetail(status == null ? HttpStatus.BAD_REQUEST : status,
                e.getReason() == null ? String.valueOf(e.getMessage()) : e.getReason());
    }

    /**
     * A body that is not the multipart upload the endpoint takes; too large a one is a 413 (the superclass). Parts
     * that could not be stored (temp directory gone or full) are this server's fault: a 500 an operator must see.
     */
    @ExceptionHandler(MultipartException.class)
    ProblemDetail multipart(MultipartException e) {
        if (serverSide(e)) {
            log.warn("multipart upload could not be stored", e);
            return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, "the upload could not be"
                    + " stored on the server: " + e.getMessage());
        }
        log.debug("multipart body refused", e);
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "expected a multipart/form-data upload"
                + " with the jar in field 'jar': " + e.getMessage());
    }

    /** Whether a file system failure (not the client's bytes) is behind a multipart failure. */
    static boolean serverSide(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof FileSystemException || t instanceof IOException io && io.getMessage() != null
                    && io.getMessage().contains("No space left")) {
                return true;
            }
        }
        return false;
    }

    @ExceptionHandler(TimeoutException.class)
    ProblemDetail timeout(TimeoutException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.GATEWAY_TIMEOUT,
                e.getMessage() == null ? "the switch did not answer in time" : e.getMessage());
    }

    @ExceptionHandler(BundleException.class)
    ProblemDetail bundle(BundleException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(IllegalStateException.class)
    ProblemDetail conflict(IllegalStateException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(RuntimeException.class)
    ProblemDetail internal(RuntimeException e) {
        log.warn("REST request failed", e);
        return ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR, String.valueOf(e));
    }
}
