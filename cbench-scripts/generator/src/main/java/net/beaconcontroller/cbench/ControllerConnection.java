package net.beaconcontroller.cbench;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;

/** One switch's blocking connection to one controller; its role is kept (and guarded) by the switch. */
final class ControllerConnection implements AutoCloseable {
    final int index;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    /** Guarded by the switch's lock. */
    RoleMessages.Role role = RoleMessages.Role.OTHER;

    ControllerConnection(int index, InetSocketAddress address) throws IOException {
        this.index = index;
        this.socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** The next whole message. */
    byte[] read() throws IOException {
        var message = new byte[OpenFlow10.HEADER_LENGTH];
        in.readFully(message);
        int length = ((message[2] & 0xff) << 8) | (message[3] & 0xff);
        if (length < OpenFlow10.HEADER_LENGTH) {
            throw new ProtocolException("message of length " + length + " is shorter than its header");
        }
        var whole = new byte[length];
        System.arraycopy(message, 0, whole, 0, OpenFlow10.HEADER_LENGTH);
        in.readFully(whole, OpenFlow10.HEADER_LENGTH, length - OpenFlow10.HEADER_LENGTH);
        return whole;
    }

    /** Writes one message; callers that need an order across connections hold the switch's lock. */
    void send(byte[] message) throws IOException {
        synchronized (out) {
            out.write(message);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
