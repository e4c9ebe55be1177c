package net.beaconcontroller.openflow;

/**
 * The OpenFlow 1.0 error codes, one enum per {@link OFErrorType}. Each enum's constants are declared in wire order
 * (the codes of every type are numbered from 0), so {@link #value()} is the ordinal.
 */
public sealed interface OFErrorCode {

    /** The error type this code belongs to. */
    OFErrorType type();

    /** The wire value of the code. */
    int value();

    /**
     * Looks a (type, code) pair up.
     *
     * @return the code, or {@code null} when the type or the code is not defined by OpenFlow 1.0
     */
    static OFErrorCode fromValues(int type, int code) {
        OFErrorType t = OFErrorType.fromValue(type);
        if (t == null || code < 0) {
            return null;
        }
        OFErrorCode[] codes = switch (t) {
            case HELLO_FAILED -> HelloFailed.values();
            case BAD_REQUEST -> BadRequest.values();
            case BAD_ACTION -> BadAction.values();
            case FLOW_MOD_FAILED -> FlowModFailed.values();
            case PORT_MOD_FAILED -> PortModFailed.values();
            case QUEUE_OP_FAILED -> QueueOpFailed.values();
        };
        return code < codes.length ? codes[code] : null;
    }

    /** {@code ofp_hello_failed_code}; the data is an ASCII explanation. */
    enum HelloFailed implements OFErrorCode {
        /** No compatible version. */
        INCOMPATIBLE,
        /** Permissions error. */
        EPERM;

        @Override
        public OFErrorType type() {
            return OFErrorType.HELLO_FAILED;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }

    /** {@code ofp_bad_request_code}; the data is at least the first 64 bytes of the failed request. */
    enum BadRequest implements OFErrorCode {
        BAD_VERSION,
        BAD_TYPE,
        BAD_STAT,
        BAD_VENDOR,
        BAD_SUBTYPE,
        EPERM,
        BAD_LEN,
        BUFFER_EMPTY,
        BUFFER_UNKNOWN;

        @Override
        public OFErrorType type() {
            return OFErrorType.BAD_REQUEST;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }

    /** {@code ofp_bad_action_code}. */
    enum BadAction implements OFErrorCode {
        BAD_TYPE,
        BAD_LEN,
        BAD_VENDOR,
        BAD_VENDOR_TYPE,
        BAD_OUT_PORT,
        BAD_ARGUMENT,
        EPERM,
        TOO_MANY,
        BAD_QUEUE;

        @Override
        public OFErrorType type() {
            return OFErrorType.BAD_ACTION;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }

    /** {@code ofp_flow_mod_failed_code}. */
    enum FlowModFailed implements OFErrorCode {
        ALL_TABLES_FULL,
        OVERLAP,
        EPERM,
        BAD_EMERG_TIMEOUT,
        BAD_COMMAND,
        UNSUPPORTED;

        @Override
        public OFErrorType type() {
            return OFErrorType.FLOW_MOD_FAILED;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }

    /** {@code ofp_port_mod_failed_code}. */
    enum PortModFailed implements OFErrorCode {
        BAD_PORT,
        BAD_HW_ADDR;

        @Override
        public OFErrorType type() {
            return OFErrorType.PORT_MOD_FAILED;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }

    /** {@code ofp_queue_op_failed_code}. */
    enum QueueOpFailed implements OFErrorCode {
        BAD_PORT,
        BAD_QUEUE,
        EPERM;

        @Override
        public OFErrorType type() {
            return OFErrorType.QUEUE_OP_FAILED;
        }

        @Override
        public int value() {
            return ordinal();
        }
    }
}
