/** The PACKET_IN guard's API: whether it is on, its budgets, and what it dropped. */
package net.beaconcontroller.guard;
