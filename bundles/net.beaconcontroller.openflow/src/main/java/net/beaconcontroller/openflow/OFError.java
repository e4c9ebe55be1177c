package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;

/**
 * ERROR. Type and code are kept as their wire values so that errors OpenFlow 1.0 does not define (a vendor's, such
 * as Open vSwitch's {@code 0xb0b0}) still parse and print; {@link #knownCode()} gives the enum when there is one.
 *
 * @param errorType wire value of {@code ofp_error_type}
 * @param errorCode wire value of the type's code
 * @param data      for HELLO_FAILED an ASCII explanation, otherwise (at least 64 bytes of) the failed request
 */
public record OFError(int xid, int errorType, int errorCode, OFData data) implements OFMessage {
    /** Size of {@code ofp_error_msg} without data. */
    public static final int MIN_LENGTH = 12;

    public OFError {
        OFWire.u16(errorType, "error type");
        OFWire.u16(errorCode, "error code");
        Objects.requireNonNull(data, "data");
        OFWire.checkLength(MIN_LENGTH + data.length(), "ERROR");
    }

    public OFError(int xid, OFErrorCode code, OFData data) {
        this(xid, code.type().value(), code.value(), data);
    }

    /** HELLO_FAILED/INCOMPATIBLE with an explanation, the answer to a peer that speaks another version. */
    public static OFError helloFailed(int xid, String explanation) {
        return new OFError(xid, OFErrorCode.HelloFailed.INCOMPATIBLE, OFData.ofAscii(explanation));
    }

    /** The error type, when OpenFlow 1.0 defines it. */
    public Optional<OFErrorType> knownType() {
        return Optional.ofNullable(OFErrorType.fromValue(errorType));
    }

    /** The error code, when OpenFlow 1.0 defines it. */
    public Optional<OFErrorCode> knownCode() {
        return Optional.ofNullable(OFErrorCode.fromValues(errorType, errorCode));
    }

    @Override
    public OFType type() {
        return OFType.ERROR;
    }

    @Override
    public int length() {
        return MIN_LENGTH + data.length();
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.ERROR, length(), xid);
        buf.putShort((short) errorType).putShort((short) errorCode);
        data.writeTo(buf);
    }

    static OFError read(ByteBuffer buf, int start, int length, int xid) {
        return new OFError(xid, buf.getShort(start + 8) & 0xffff, buf.getShort(start + 10) & 0xffff,
                OFData.copyOf(buf, start + MIN_LENGTH, length - MIN_LENGTH));
    }

    @Override
    public String toString() {
        OFErrorType t = OFErrorType.fromValue(errorType);
        OFErrorCode c = OFErrorCode.fromValues(errorType, errorCode);
        String shown = t == OFErrorType.HELLO_FAILED ? '"' + data.toAsciiString() + '"' : data.toString();
        return "OFError[xid=" + xid + ", type=" + (t != null ? t : OFWire.hex(errorType)) + ", code="
                + (c != null ? c : Integer.toString(errorCode)) + ", data=" + shown + "]";
    }
}
