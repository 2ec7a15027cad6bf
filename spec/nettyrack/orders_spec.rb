# frozen_string_literal: true

require "nettyrack/orders"

RSpec.describe Nettyrack::Orders do
  it "hands a request to the waiting thread" do
    orders = described_class.new
    waiter = Thread.new { orders.next(timeout: 10) }
    orders.request(:stop, "shutdown")
    expect(Deadline.value(waiter, 15).to_a).to eq([:stop, "shutdown", nil])
  end

  it "gives nil once the timeout passed with no order" do
    expect(described_class.new.next(timeout: 0.05)).to be_nil
  end

  it "relays the control endpoint's stop and restart in their order, and ends the relay on restore" do
    orders = described_class.new
    java_orders = Java::OrgNettyrackCoreOps::Orders.new
    orders.relay(java_orders)
    java_orders.request(Java::OrgNettyrackCoreOps::Orders::Kind::RESTART, "control /restart")
    java_orders.request(Java::OrgNettyrackCoreOps::Orders::Kind::STOP, "control /stop")
    expect(orders.next(timeout: 10).to_a).to eq([:restart, "control /restart", nil])
    expect(orders.next(timeout: 10).to_a).to eq([:stop, "control /stop", nil])
    quiet = described_class.new.relay(Java::OrgNettyrackCoreOps::Orders.new)
    restoring = Thread.new do
      quiet.restore
      :restored
    end
    expect(Deadline.value(restoring, 5)).to eq(:restored), "the idle relay thread ended"
    orders.restore
  end

  it "hands a trapped signal over as its kind, then restores the handler it replaced" do
    # Through Signals, so that a HUP this process inherited as ignored (nohup) is taken over
    # first: JRuby's own trap would install nothing then.
    previous = Nettyrack::Signals.trap("HUP") { :previous }
    orders = described_class.new.trap("HUP" => :restart)
    Process.kill("HUP", Process.pid)
    expect(orders.next(timeout: 10).to_a).to eq([:restart, "SIGHUP", nil])
    orders.restore
    expect(Signal.trap("HUP", "DEFAULT").call).to eq(:previous)
  ensure
    Signal.trap("HUP", previous || "DEFAULT")
  end
end
