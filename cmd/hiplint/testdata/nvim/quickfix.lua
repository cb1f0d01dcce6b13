-- Drives `hiplint lsp` from a headless Neovim the way a user would, for
-- TestNeovimQuickFix: open a Go file, wait for hiplint's diagnostics, ask
-- for code actions at the first one, apply its quick fix, and write the
-- buffer elsewhere. Works with Neovim 0.7 (Debian 12: vim.lsp.start_client)
-- and later (vim.lsp.start).
--
-- Environment: HIPLINT_BIN (the binary), HIPLINT_FILE (the Go file),
-- HIPLINT_OUT (a JSON report to write), HIPLINT_FIXED (where to write the
-- fixed buffer).

local bin = assert(os.getenv('HIPLINT_BIN'), 'HIPLINT_BIN not set')
local file = assert(os.getenv('HIPLINT_FILE'), 'HIPLINT_FILE not set')
local out = assert(os.getenv('HIPLINT_OUT'), 'HIPLINT_OUT not set')
local fixed = assert(os.getenv('HIPLINT_FIXED'), 'HIPLINT_FIXED not set')
local timeout_ms = 180000

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()

  local config = {
    name = 'hiplint',
    cmd = { bin, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
  }
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else
    client_id = vim.lsp.start_client(config)
    assert(vim.lsp.buf_attach_client(bufnr, client_id), 'cannot attach the client')
  end
  assert(client_id, 'hiplint lsp did not start')
  local client = vim.lsp.get_client_by_id(client_id)

  local got = vim.wait(timeout_ms, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 100)
  assert(got, 'no diagnostics from hiplint lsp')

  local report = { diagnostics = {}, actions = {} }
  local diagnostics = vim.diagnostic.get(bufnr)
  for _, d in ipairs(diagnostics) do
    table.insert(report.diagnostics, {
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
      lnum = d.lnum,
      col = d.col,
      message = d.message,
      source = d.source,
    })
  end

  -- Code actions at the first diagnostic, the way the editor's
  -- vim.lsp.buf.code_action() asks for them.
  local d = diagnostics[1]
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    context = { diagnostics = { (d.user_data and d.user_data.lsp) or {} } },
  }
  local response = client.request_sync('textDocument/codeAction', params, timeout_ms, bufnr)
  assert(response, 'no answer to textDocument/codeAction')
  assert(not response.err, 'textDocument/codeAction: ' .. vim.inspect(response.err))
  for _, action in ipairs(response.result or {}) do
    table.insert(report.actions, { title = action.title, kind = action.kind })
    if action.kind == 'quickfix' and action.edit and not report.applied then
      vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
      report.applied = action.title
    end
  end

  vim.cmd('write! ' .. vim.fn.fnameescape(fixed))
  vim.fn.writefile({ vim.fn.json_encode(report) }, out)

  vim.lsp.stop_client(client_id)
  vim.wait(10000, function()
    return vim.lsp.get_client_by_id(client_id) == nil or client.is_stopped()
  end, 50)
end

local ok, err = pcall(main)
if not ok then
  io.stderr:write('quickfix.lua: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
