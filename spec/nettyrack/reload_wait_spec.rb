# frozen_string_literal: true

require "json"
require "nettyrack/reload_wait"

RSpec.describe Nettyrack::ReloadWait do
  # GET /stats answered from a list of reload statuses, one a call (the last one again after).
  let(:endpoint) do
    Class.new do
      def initialize(statuses) = @statuses = statuses

      def call(_verb, _path)
        status = @statuses.size > 1 ? @statuses.shift : @statuses.first
        JSON.generate("process" => { "pid" => 100, "reload" => status })
      end
    end
  end
  let(:now) { [0.0] }
  let(:clock) { -> { now.first } }
  let(:pause) { ->(seconds) { now[0] += seconds } }

  def wait(*statuses, timeout: 60)
    described_class.new(endpoint.new(statuses), clock: clock, pause: pause).until_ended(timeout)
  end

  it "waits while the reload is under way and returns how it ended" do
    done = "done: generation 2 serves (new code answering 1.0 s after the order, all of it after 11.0 s)"
    expect(wait("requested", "booting (control /reload-app)", "canary: the new code booted in 1.0 s", "draining: x", done))
      .to eq([true, done])
    expect(now.first).to eq(2.0)
  end

  it "says how a reload that did not take ended" do
    expect(wait("booting (x)", "rolled back: new code 20 of 20 answers 5xx, old code 0 of 9 answers 5xx"))
      .to eq([false, "rolled back: new code 20 of 20 answers 5xx, old code 0 of 9 answers 5xx"])
    expect(wait("failed: syntax error in config.ru:3")).to eq([false, "failed: syntax error in config.ru:3"])
    expect(wait("refused: Gemfile.lock changed since boot")).to eq([false, "refused: Gemfile.lock changed since boot"])
  end

  it "gives up after the timeout" do
    expect { wait("canary: the new code booted in 1.0 s", timeout: 5) }
      .to raise_error(Nettyrack::ControlClient::Failure, "the reload had not ended after 5 s (canary: the new code booted in 1.0 s)")
  end
end
