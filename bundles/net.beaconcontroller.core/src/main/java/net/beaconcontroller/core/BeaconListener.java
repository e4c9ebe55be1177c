package net.beaconcontroller.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.osgi.service.component.annotations.ComponentPropertyType;

import net.beaconcontroller.openflow.OFType;

/**
 * Service properties of a listener published on the whiteboard, put on the component class beside
 * {@code @Component}:
 *
 * <pre>
 * &#64;Component
 * &#64;BeaconListener(types = OFType.PACKET_IN, before = "learningswitch")
 * public final class Monitor implements IOFMessageListener { ... }
 * </pre>
 *
 * The controller picks up every {@link IOFMessageListener}, {@link IOFSwitchListener} and
 * {@link IOFInitializerListener} service, and drops it when the service goes (its bundle stops).
 */
@ComponentPropertyType
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface BeaconListener {
    /** Property names start with this: {@code beacon.listener.types}, {@code beacon.listener.before}, ... */
    String PREFIX_ = "beacon.listener.";

    /** The message types an {@link IOFMessageListener} receives. */
    OFType[] types() default {};

    /** Names of listeners this one must run before (when they are present). */
    String[] before() default {};

    /** Names of listeners this one must run after (when they are present). */
    String[] after() default {};
}
