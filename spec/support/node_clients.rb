# frozen_string_literal: true

require_relative "client_process"

# Node.js clients for the push specs: scripts under spec/support/clients (*.js) run with the
# machine's node and the packages script/bootstrap installs in .toolchain/node (pinned in
# script/lib/node.sh), JSON in and out like the Python ones (ClientProcess):
#
#   NodeClients.run("clients/ws_node_client.js", url: "ws://127.0.0.1:#{port}/", messages: [...])
module NodeClients
  MODULES = File.expand_path("../../.toolchain/node/node_modules", __dir__)

  module_function

  # The parsed JSON report of spec/support/+script+ given +input+ (a Hash) on stdin.
  def run(script, input = {}, timeout: 30)
    raise "no Node.js packages in #{MODULES}: run script/bootstrap" unless File.directory?("#{MODULES}/ws")

    ClientProcess.run(["node", File.join(__dir__, script)], input, timeout: timeout, env: { "NODE_PATH" => MODULES })
  end
end
