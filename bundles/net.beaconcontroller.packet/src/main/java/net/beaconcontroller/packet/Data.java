package net.beaconcontroller.packet;

/** Bytes the library does not interpret: an unknown ether type or IP protocol, a fragment, application data. */
public record Data(Bytes bytes) implements EthernetPayload, IpPayload, UdpPayload {
    public static final Data EMPTY = new Data(Bytes.EMPTY);

    public Data {
        if (bytes == null) {
            throw new IllegalArgumentException("bytes must not be null");
        }
    }

    /** A copy of {@code bytes} as a payload. */
    public static Data of(byte... bytes) {
        return new Data(Bytes.of(bytes));
    }

    @Override
    public int length() {
        return bytes.length();
    }

    /** A copy of the bytes. */
    public byte[] serialize() {
        return bytes.toArray();
    }

    @Override
    public String toString() {
        return "Data[" + bytes.length() + " bytes" + (bytes.isEmpty() ? "" : ": " + bytes) + "]";
    }
}
