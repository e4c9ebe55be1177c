package net.beaconcontroller.cluster.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The frame of every record members exchange as bytes ({@link Message}, {@link MemberReport}): a version byte, then
 * the record's fields. Reading refuses another version, a truncated record and bytes left over, each with an
 * {@link IllegalArgumentException} that names the record.
 */
final class Codec {
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private Codec() {
    }

    static byte[] encode(int version, int sizeHint, Writer body) {
        var bytes = new ByteArrayOutputStream(sizeHint);
        try (var out = new DataOutputStream(bytes)) {
            out.writeByte(version);
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @param what the record's name, for the errors: "cluster message", "member report" */
    static <T> T decode(byte[] bytes, String what, int version, Reader<T> body) {
        try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int found = in.readUnsignedByte();
            if (found != version) {
                throw new IllegalArgumentException(what + " version " + found + ", this member reads " + version);
            }
            var result = body.read(in);
            if (in.available() != 0) {
                throw new IllegalArgumentException(what + " with " + in.available() + " bytes left over");
            }
            return result;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated " + what, e);
        }
    }
}
