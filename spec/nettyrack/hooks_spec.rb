# frozen_string_literal: true

require "stringio"
require "nettyrack/hooks"

RSpec.describe Nettyrack::Hooks do
  it "runs an event's blocks in order, handing worker hooks the index 0 as Puma's single mode would" do
    ran = []
    err = StringIO.new
    hooks = described_class.new({ booted: [-> { ran << :first }, proc { ran << :second }],
                                  worker_boot: [->(index) { ran << [:boot, index] }, proc { |index, data| ran << [index, data] }] },
                                err: err)
    hooks.run(:booted)
    hooks.run(:worker_boot)
    hooks.run(:stopped)
    expect(ran).to eq([:first, :second, [:boot, 0], [0, nil]])
    expect(err.string).to eq("")
  end

  it "says a block that raises in one line, and runs the rest" do
    err = StringIO.new
    ran = []
    described_class.new({ restart: [-> { raise ArgumentError, "no database" }, -> { ran << :after }] }, err: err).run(:restart)
    expect(ran).to eq([:after])
    expect(err.string).to match(/\Anettyrack: the restart hook raised ArgumentError: no database \(.*hooks_spec\.rb:\d+\)\n\z/)
  end
end
