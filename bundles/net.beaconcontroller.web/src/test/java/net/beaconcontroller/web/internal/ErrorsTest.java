package net.beaconcontroller.web.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

import org.eclipse.jetty.http.BadMessageException;
import org.junit.jupiter.api.Test;
import org.springframework.web.multipart.MultipartException;

/** Issue 28: a multipart failure is the client's (400) unless the server could not store the parts (500). */
class ErrorsTest {
    private final Errors errors = new Errors();

    @Test
    void aMalformedUploadIsTheClientsFault() {
        assertEquals(400, errors.multipart(new MultipartException("bad", new BadMessageException("no boundary")))
                .getStatus());
        assertEquals(400, errors.multipart(new MultipartException("bad", new EOFException("early end"))).getStatus());
    }

    @Test
    void partsThatCannotBeStoredAreTheServersFault() {
        var gone = new MultipartException("parse", new IOException("part", new NoSuchFileException("/tmp/gone")));
        var full = new MultipartException("parse", new IOException("No space left on device"));
        assertEquals(500, errors.multipart(gone).getStatus());
        assertEquals(500, errors.multipart(full).getStatus());
    }
}
