package net.beaconcontroller.core.shared;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Function;

/** {@link SharedCodec#ofLines}: one line of text a value, of any length. */
record LineCodec<V>(int version, Function<V, String> line, Function<String, V> parse) implements SharedCodec<V> {
    /** Characters that fit one {@link DataOutput#writeUTF} whatever they are (3 bytes at most each). */
    private static final int PIECE = 0xffff / 3;

    @Override
    public void write(V value, DataOutput out) throws IOException {
        var text = line.apply(value);
        if (text.isEmpty()) {
            throw new IllegalArgumentException("a value's line is never empty");
        }
        if (text.length() <= PIECE || modifiedUtf8Length(text) <= 0xffff) {
            out.writeUTF(text);
            return;
        }
        out.writeUTF("");
        int pieces = (text.length() + PIECE - 1) / PIECE;
        out.writeInt(pieces);
        for (int i = 0; i < pieces; i++) {
            // A surrogate pair split between pieces is whole again once joined: each half is written alone.
            out.writeUTF(text.substring(i * PIECE, Math.min(text.length(), (i + 1) * PIECE)));
        }
    }

    @Override
    public V read(DataInput in) throws IOException {
        var text = in.readUTF();
        if (text.isEmpty()) {
            int pieces = in.readInt();
            if (pieces < 2) {
                throw new IOException("a long line in " + pieces + " pieces");
            }
            var joined = new StringBuilder();
            for (int i = 0; i < pieces; i++) {
                joined.append(in.readUTF());
            }
            text = joined.toString();
        }
        return parse.apply(text);
    }

    private static long modifiedUtf8Length(String text) {
        long length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            length += c >= 1 && c <= 0x7f ? 1 : c <= 0x7ff ? 2 : 3;
        }
        return length;
    }
}
