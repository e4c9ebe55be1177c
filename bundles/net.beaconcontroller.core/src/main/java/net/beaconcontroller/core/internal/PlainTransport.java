package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** OpenFlow over plain TCP: the bytes go to the socket as they are. */
final class PlainTransport implements Transport {
    private final SocketChannel channel;

    PlainTransport(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public SocketChannel channel() {
        return channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return channel.read(dst);
    }

    @Override
    public Sent write(ByteBuffer src) throws IOException {
        channel.write(src);
        return src.hasRemaining() ? Sent.SOCKET_FULL : Sent.ALL;
    }

    @Override
    public boolean wantsFlush() {
        return false;
    }

    @Override
    public boolean hasBufferedInput() {
        return false;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
